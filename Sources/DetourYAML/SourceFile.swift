import DetourDiagnostics
import DetourSupport
import Foundation

/// A user's text file, read whole and checked to be UTF-8.
public struct SourceFile: Sendable {
    /// Path as printed in diagnostics (relative to where detour was run).
    public var displayPath: String
    public var url: URL
    public var text: String

    public init(displayPath: String, url: URL, text: String) {
        self.displayPath = displayPath
        self.url = url
        self.text = text
    }

    public var start: SourceLocation { SourceLocation(path: displayPath) }

    /// Reads `url`; an unreadable or non-UTF-8 file becomes a located diagnostic instead.
    public static func read(_ url: URL, displayPath: String) -> Result<SourceFile, Diagnostic> {
        switch FileBytes.read(url.path) {
        case .success(let contents): return decode(contents.bytes, url: url, displayPath: displayPath)
        case .failure(let failure):
            return .failure(unreadable(failure, displayPath: displayPath))
        }
    }

    public static func unreadable(_ failure: FileBytes.Failure, displayPath: String) -> Diagnostic {
        .error("file.unreadable", "cannot read file: \(failure.reason)", at: SourceLocation(path: displayPath))
    }

    /// Bytes already read from `url`, checked to be UTF-8.
    public static func decode(_ bytes: [UInt8], url: URL, displayPath: String) -> Result<SourceFile, Diagnostic> {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            let location = firstInvalidUTF8(in: bytes, path: displayPath)
            return .failure(.error("file.not-utf8", "file is not valid UTF-8 text", at: location))
        }
        return .success(SourceFile(displayPath: displayPath, url: url, text: text))
    }

    /// Locates the first byte that breaks UTF-8 so the user can find it in an editor.
    private static func firstInvalidUTF8(in bytes: [UInt8], path: String) -> SourceLocation {
        var line = 1
        var lineStart = 0
        var offset = 0
        while offset < bytes.count {
            let byte = bytes[offset]
            let length: Int
            switch byte {
            case 0x00...0x7F: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: length = 0
            }
            let end = offset + length
            let valid =
                length > 0 && end <= bytes.count
                && bytes[(offset + 1)..<max(offset + 1, end)].allSatisfy { $0 & 0xC0 == 0x80 }
                && String(validating: bytes[offset..<end], as: UTF8.self) != nil
            if !valid { break }
            if byte == 0x0A {
                line += 1
                lineStart = end
            }
            offset = end
        }
        let column = (String(validating: bytes[lineStart..<offset], as: UTF8.self)?.count ?? 0) + 1
        return SourceLocation(path: path, line: line, column: column)
    }

    /// Markdown read from a block scalar of this file: its text is stored without its
    /// indentation; the column of its first line in the file puts link positions back where
    /// the user sees them.
    public func indented(_ markdown: Located<String>) -> Located<String> {
        // Lines by their bytes: "\r\n" is one character, which a split on "\n" never finds.
        let lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        guard markdown.location.line - 1 < lines.count, markdown.location.column == 1 else { return markdown }
        let indentation = lines[markdown.location.line - 1].prefix { $0 == UInt8(ascii: " ") }.count
        var shifted = markdown
        shifted.location.column = indentation + 1
        return shifted
    }
}
