import ArgumentParser
import CMemory
import DetourLayout
import DetourRules
import DetourSite
import Foundation

struct BuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Build error pages and the help site from content and templates.",
        discussion: """
            Reads <content>/site.yml, <content>/codes/*.yml, <content>/translations/*.yml and <content>/articles/**/*.md, renders them with the built-in theme (with <templates>/**/*.mustache laid over it), and writes errors/<language>/<status>.html, .json (problem details), .txt and .http (for HAProxy's errorfile) and, for 5xx, .lf (the page as an HAProxy log-format file, with the request's ID), the default language's also in errors/ (self-contained pages: inline CSS, logo and icon, at most 8 KiB), the help site (index.html, codes/<status>/, articles/<slug>/, and the same in <language>/ for each other language, translated or falling back with a notice; tags/<tag>/, search/ with its index in search/<language>/, style.css, sitemap.xml, robots.txt, 404.html, and the files of the theme's assets/, such as search.js) and snippets/ for nginx, Caddy, HAProxy and Apache (see 'detour snippet').

            The build is staged beside the output folder and replaces it only when every file was written without error; a failed or interrupted build leaves the previous output intact.

            Each build that replaces the output records what it was made from in .detour-cache/<output>/ beside the output: every file's size and modification time under <content> and <templates> (its content's SHA-256 when it was saved just before the build), the options, this detour, and the articles' text. When all of that is unchanged and the output is the folder that build wrote, nothing is written, and the last build's findings are reported again. When only articles' bodies changed (their text and headings, not their front matter), only the pages and search index files that show them are rewritten, byte for byte as a full build writes them. Files changed by hand inside the output are not looked at: --no-cache builds in full.
            """
    )

    @Option(help: "Folder holding site.yml, codes/ and articles/.")
    var content = "content"

    @Option(help: "Folder of Mustache templates laid over the built-in theme, file by file (default: templates, if present).")
    var templates: String?

    @Option(help: "Folder to write; replaced whole on success.")
    var output = SiteLayout.defaultOutput

    @Option(name: .customLong("base-url"), help: "Where the help site is published, replacing site.yml's base_url (for staging and previews).")
    var baseURL: String?

    @Flag(help: "Publish draft articles too.")
    var drafts = false

    @Flag(name: .customLong("no-cache"), help: "Build in full, whatever changed since the last build into the output (.detour-cache/).")
    var noCache = false

    @Flag(name: .shortAndLong, help: "Print nothing on success, and no progress line on a terminal.")
    var quiet = false

    @Flag(help: "Print the wall time of each phase of the build, and the peak memory when it ended, on standard error.")
    var timings = false

    @OptionGroup var diagnostics: DiagnosticOptions

    func validate() throws {
        if let baseURL, URL(string: baseURL).map({ ["http", "https"].contains($0.scheme ?? "") && $0.host?.isEmpty == false }) != true {
            throw ValidationError("--base-url takes an absolute http:// or https:// URL, not '\(baseURL)'")
        }
    }

    func run() throws {
        // Pages and index files of megabytes come and go: each mapped alone, and given back.
        _ = detour_map_large_blocks(256 * 1024)
        let started = Date()
        var options = BuildOptions(content: content, templates: templates, output: output)
        options.strict = diagnostics.strict
        options.includeDrafts = drafts
        options.baseURL = baseURL
        options.cache = noCache ? .refresh : .use
        options.toolIdentity = Detour.version
        // One line, rewritten in place, only for a person watching a terminal.
        let showsProgress = !quiet && isatty(STDERR_FILENO) == 1
        if showsProgress {
            options.progress = { step in FileHandle.standardError.write("\r\u{1B}[Kbuilding: \(step)…") }
        }
        let report = SiteBuilder.build(options)
        if showsProgress { FileHandle.standardError.write("\r\u{1B}[K") }
        let status = diagnostics.report(report.diagnostics, catalogue: RuleBook.contentRules, content: content, baseURL: baseURL)
        if report.wroteOutput || report.upToDate || !report.rewritten.isEmpty, status == 0, !quiet, diagnostics.format == .text {
            let seconds = String(format: "%.2f", Date().timeIntervalSince(started))
            func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
            let built = "\(count(report.errorPages, "error page")) and \(count(report.articles, "article")) (\(count(report.files, "file")))"
            let rewritten = report.rewritten
            if !rewritten.isEmpty {
                let named = rewritten.count <= 3 ? rewritten.joined(separator: ", ") : "\(rewritten[0]) and \(rewritten.count - 1) more"
                print("Rebuilt \(count(rewritten.count, "file")) of \(options.outputDisplay)/ (\(named)) in \(seconds) s: only articles' bodies changed")
            } else if report.upToDate {
                print("\(options.outputDisplay)/ is up to date: \(built), nothing it shows changed since its last build (checked in \(seconds) s)")
            } else {
                print("Built \(built) into \(options.outputDisplay)/ in \(seconds) s")
            }
        }
        if timings {
            fflush(nil)
            let total = report.phases.reduce(0) { $0 + $1.seconds }
            for phase in report.phases {
                let name = phase.name.padding(toLength: 22, withPad: " ", startingAt: 0)
                let share = total > 0 ? 100 * phase.seconds / total : 0
                FileHandle.standardError.write(name + String(format: "%7.3f s %5.1f%%   peak %4d MiB\n", phase.seconds, share, phase.peakBytes >> 20))
            }
            for phase in report.concurrentPhases {
                let name = phase.name.padding(toLength: 22, withPad: " ", startingAt: 0)
                FileHandle.standardError.write(name + String(format: "%7.3f s (beside the phases above)\n", phase.seconds))
            }
        }
        if status != 0, !report.wroteOutput, FileManager.default.fileExists(atPath: options.output.path) {
            FileHandle.standardError.write("\(options.outputDisplay)/ was left as it was.\n")
        }
        // Ends here, with what the build made still held (`BuildReport.built`): the system
        // frees it at once.
        fflush(nil)
        Foundation.exit(status)
    }
}
