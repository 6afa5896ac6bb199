import DetourDiagnostics
import Foundation

/// Loads the SVG logo that every error page inlines. The file must stay inside `content/` and
/// must not make the page fetch anything: error pages are shown while the backend is down.
struct LogoLoader {
    let contentRoot: URL
    let displayRoot: String

    func load(_ path: Located<String>, diagnostics: inout [Diagnostic]) -> String? {
        let root = contentRoot.standardizedFileURL.resolvingSymlinksInPath()
        let url = root.appendingPathComponent(path.value).standardizedFileURL.resolvingSymlinksInPath()
        guard url.path.hasPrefix(root.path + "/") else {
            diagnostics.append(.error("site.path-escape", "'logo' must name a file inside \(displayRoot)/, not '\(path.value)'", at: path.location))
            return nil
        }
        let displayPath = displayRoot + "/" + String(url.path.dropFirst(root.path.count + 1))
        guard FileManager.default.fileExists(atPath: url.path) else {
            diagnostics.append(.error("site.missing-file", "logo file '\(displayPath)' does not exist", at: path.location))
            return nil
        }
        let file: SourceFile
        switch SourceFile.read(url, displayPath: displayPath) {
        case .success(let read): file = read
        case .failure(let diagnostic):
            diagnostics.append(diagnostic)
            return nil
        }
        return svgMarkup(of: file, declaredAt: path.location, diagnostics: &diagnostics)
    }

    private func svgMarkup(of file: SourceFile, declaredAt location: SourceLocation, diagnostics: inout [Diagnostic]) -> String? {
        var text = file.text
        // Prolog, doctype and comments are not allowed inside HTML, so drop them before inlining.
        for pattern in [#"<\?xml[^>]*\?>"#, #"<!DOCTYPE[^>]*>"#, #"<!--[\s\S]*?-->"#] {
            text = text.replacingOccurrences(of: pattern, with: "", options: [.regularExpression, .caseInsensitive])
        }
        text = text.trimmingWhitespace()
        guard text.range(of: #"^<svg[\s>]"#, options: [.regularExpression, .caseInsensitive]) != nil, text.lowercased().hasSuffix("</svg>") else {
            diagnostics.append(.error("site.invalid-logo", "logo '\(file.displayPath)' must be an SVG document (<svg>…</svg>)", at: location))
            return nil
        }
        if let script = text.range(of: #"<script|\son[a-z]+\s*="#, options: [.regularExpression, .caseInsensitive]) {
            let line = text[..<script.lowerBound].filter { $0 == "\n" }.count + 1
            diagnostics.append(.error("site.logo-script", "logo must not contain scripts or event handlers: error pages run no JavaScript", at: SourceLocation(path: file.displayPath, line: line)))
            return nil
        }
        if let external = text.range(of: #"(href\s*=\s*["']\s*(https?:)?//)|(url\(\s*["']?\s*(https?:)?//)|@import"#, options: [.regularExpression, .caseInsensitive]) {
            let line = text[..<external.lowerBound].filter { $0 == "\n" }.count + 1
            diagnostics.append(.error("site.logo-external-reference", "logo refers to an external resource; error pages must make no external request while the backend is down", at: SourceLocation(path: file.displayPath, line: line)))
            return nil
        }
        return text
    }
}
