import DetourDiagnostics
import DetourSupport
import DetourYAML
import Foundation

/// Loads the SVG logo that every error page inlines. The file must stay inside `content/` and
/// must not make the page fetch anything: error pages are shown while the backend is down.
struct LogoLoader {
    /// Every error page inlines the logo, and the pages must stay within their 8 KiB.
    static let budget = 4 * 1024

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
        let bytes: [UInt8]
        switch FileBytes.read(url.path) {
        case .success(let contents): bytes = contents.bytes
        case .failure(let failure):
            diagnostics.append(SourceFile.unreadable(failure, displayPath: displayPath))
            return nil
        }
        if let kind = Self.imageKind(bytes) {
            diagnostics.append(
                .error(
                    "site.invalid-logo", "logo '\(displayPath)' is a \(kind) image; error pages inline the logo as SVG markup, so it must be an SVG file",
                    at: path.location))
            return nil
        }
        if bytes.count > Self.budget {
            diagnostics.append(
                .error(
                    "site.logo-too-large",
                    "logo '\(displayPath)' is \(bytes.count) bytes, over the \(Self.budget)-byte budget: every error page inlines it and must stay within 8 KiB; simplify it (for example with svgo)",
                    at: path.location))
            return nil
        }
        let file: SourceFile
        switch SourceFile.decode(bytes, url: url, displayPath: displayPath) {
        case .success(let read): file = read
        case .failure(let diagnostic):
            diagnostics.append(diagnostic)
            return nil
        }
        return svgMarkup(of: file, declaredAt: path.location, diagnostics: &diagnostics)
    }

    /// Raster formats people try first, told apart by their first bytes.
    private static func imageKind(_ bytes: [UInt8]) -> String? {
        let signatures: [(String, [UInt8])] = [
            ("PNG", [0x89, 0x50, 0x4E, 0x47]), ("JPEG", [0xFF, 0xD8, 0xFF]), ("GIF", Array("GIF8".utf8)),
            ("WebP", Array("RIFF".utf8)), ("ICO", [0x00, 0x00, 0x01, 0x00]),
        ]
        return signatures.first { bytes.starts(with: $0.1) }?.0
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
            diagnostics.append(
                .error(
                    "site.logo-script", "logo must not contain scripts or event handlers: error pages run no JavaScript",
                    at: SourceLocation(path: file.displayPath, line: line)))
            return nil
        }
        if let external = text.range(
            of: #"(href\s*=\s*["']\s*(https?:)?//)|(url\(\s*["']?\s*(https?:)?//)|@import"#, options: [.regularExpression, .caseInsensitive])
        {
            let line = text[..<external.lowerBound].filter { $0 == "\n" }.count + 1
            diagnostics.append(
                .error(
                    "site.logo-external-reference", "logo refers to an external resource; error pages must make no external request while the backend is down",
                    at: SourceLocation(path: file.displayPath, line: line)))
            return nil
        }
        return text
    }
}
