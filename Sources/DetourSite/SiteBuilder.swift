import DetourContent
import DetourDiagnostics
import Foundation

/// `detour build`: a plain function that runs the phases in order — check the output path,
/// load templates and content, render every page in parallel into a staging folder, then swap
/// it into place. Nothing is written over the previous output unless every phase succeeded.
public enum SiteBuilder {
    /// Largest error page: it must stay tiny to be served while a backend is down, and HAProxy
    /// refuses an errorfile larger than its buffer.
    public static let errorPageBudget = 8 * 1024

    public static func build(_ options: BuildOptions) -> BuildReport {
        var report = BuildReport()
        if let unsafe = OutputSafety.check(options) {
            report.diagnostics = [unsafe]
            return report
        }
        let (templates, templateDiagnostics) = TemplateSet.load(from: options.templates, displayRoot: options.templatesDisplay)
        let (content, contentDiagnostics) = ContentLoader(root: options.content, displayRoot: options.contentDisplay).load()
        report.diagnostics = templateDiagnostics + contentDiagnostics
        guard let templates, let content, !failed(report.diagnostics, options) else { return report }

        // Files 0644 and folders 0755 (nginx workers run as `nobody`) without a chmod per file.
        let previousMask = umask(0o022)
        defer { umask(previousMask) }
        let output = OutputDirectory(target: options.output)
        do {
            try output.prepare()
        } catch {
            report.diagnostics.append(writeFailure(options, error))
            return report
        }
        let pages = PageSet(content: content, model: PageModel(content: content, errorPageAdvice: errorPageAdvice(content)), templates: templates)
        let results = pages.jobs.concurrentMap { job -> Diagnostic? in
            let text = pages.render(job, with: templates)
            if case .errorPage(let code) = job, text.utf8.count > errorPageBudget {
                return .error("errorpage.too-large", "error page for \(code.status) is \(text.utf8.count) bytes, over the \(errorPageBudget)-byte budget; shorten the advice or the error template", at: code.location)
            }
            do {
                try output.write(pages.path(of: job), text)
                return nil
            } catch {
                return writeFailure(options, error)
            }
        }
        report.diagnostics += results.compactMap { $0 }
        guard !failed(report.diagnostics, options) else {
            output.discard()
            return report
        }
        do {
            try output.commit()
        } catch {
            output.discard()
            report.diagnostics.append(writeFailure(options, error))
            return report
        }
        report.wroteOutput = true
        report.files = pages.jobs.count
        report.errorPages = content.codes.filter(\.generatesPage).count
        report.articles = content.articles.count
        return report
    }

    /// Error pages are served by the proxy, far from the help site, so their links are absolute.
    private static func errorPageAdvice(_ content: Content) -> [Int: String] {
        let renderer = MarkdownRenderer(
            resolver: LinkResolver(articles: content.articles, statuses: Set(content.codes.map(\.status))),
            allowRawHTML: content.site.allowRawHTML
        )
        var advice: [Int: String] = [:]
        for code in content.codes where code.generatesPage {
            guard let markdown = code.advice else { continue }
            // Links were checked when the content loaded; only the rewrite differs here.
            advice[code.status] = renderer.render(markdown.value, fromPath: code.relativePath, start: markdown.location, root: content.site.baseURL).0.html
        }
        return advice
    }

    private static func failed(_ diagnostics: [Diagnostic], _ options: BuildOptions) -> Bool {
        diagnostics.hasErrors || (options.strict && diagnostics.contains { $0.severity == .warning })
    }

    private static func writeFailure(_ options: BuildOptions, _ error: Error) -> Diagnostic {
        let reason = (error as NSError).localizedDescription
        return .error("build.write-failed", "cannot write the output: \(reason)", at: SourceLocation(path: options.outputDisplay))
    }
}
