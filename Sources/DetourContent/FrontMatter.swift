import DetourDiagnostics
import DetourYAML

/// Splits a Markdown file into its `---`-fenced YAML front matter and body, as Hugo and Jekyll do.
struct FrontMatter {
    var yaml: String
    /// Lines above the YAML text (the opening fence).
    var yamlLineOffset: Int
    var body: String
    /// 1-based line of the file on which the body starts.
    var bodyStartLine: Int

    /// Works on UTF-8 bytes: fences are ASCII, and splitting ten thousand files into Characters
    /// showed up in profiles.
    static func split(_ file: SourceFile) -> Result<FrontMatter, Diagnostic> {
        var utf8 = Array(file.text.utf8)
        if utf8.starts(with: [0xEF, 0xBB, 0xBF]) { utf8.removeFirst(3) }
        guard let firstEnd = lineEnd(in: utf8, from: 0), isFence(utf8[0..<firstEnd], dots: false) else {
            return .failure(
                .error("article.missing-front-matter", "article must start with YAML front matter between '---' lines (title, summary, …)", at: file.start))
        }
        var line = 2
        var start = firstEnd + 1
        while start <= utf8.count {
            let end = lineEnd(in: utf8, from: start) ?? utf8.count
            if isFence(utf8[start..<end], dots: true) {
                let yaml = String(decoding: utf8[(firstEnd + 1)..<start], as: UTF8.self)
                let body = end < utf8.count ? String(decoding: utf8[(end + 1)...], as: UTF8.self) : ""
                return .success(FrontMatter(yaml: yaml, yamlLineOffset: 1, body: body, bodyStartLine: line + 1))
            }
            if end == utf8.count { break }
            start = end + 1
            line += 1
        }
        return .failure(.error("article.unterminated-front-matter", "front matter opened here is never closed with a '---' line", at: file.start))
    }

    private static func lineEnd(in bytes: [UInt8], from start: Int) -> Int? {
        guard start <= bytes.count else { return nil }
        return bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
    }

    /// `---` (or `...` to close), ignoring a trailing carriage return.
    private static func isFence(_ line: ArraySlice<UInt8>, dots: Bool) -> Bool {
        let trimmed = line.last == 0x0D ? line.dropLast() : line
        return trimmed.elementsEqual([0x2D, 0x2D, 0x2D]) || (dots && trimmed.elementsEqual([0x2E, 0x2E, 0x2E]))
    }
}
