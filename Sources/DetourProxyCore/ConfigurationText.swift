import DetourDiagnostics
import DetourSupport
import Foundation

/// A configuration file's bytes (and identity), or the finding that says why it cannot be read
/// as text: a file that cannot be opened, or one holding a NUL byte (a binary), located at its line.
public enum ConfigurationText {
    public struct Failure: Error, Sendable {
        public let diagnostic: Diagnostic
        /// The path is a folder: a server that includes folders reads its files instead.
        public let isFolder: Bool
    }

    public static func read(_ path: String, display: String, rule: String) -> Result<FileBytes.Contents, Failure> {
        let contents: FileBytes.Contents
        switch FileBytes.read(path, limit: 64 << 20) {
        case .success(let read): contents = read
        case .failure(let failure):
            return .failure(
                Failure(
                    diagnostic: .error(rule, "cannot read '\(display)': \(failure.reason)", at: SourceLocation(path: display)), isFolder: failure.code == EISDIR
                ))
        }
        let bytes = contents.bytes
        // memchr: a configuration can be megabytes, and almost never holds one.
        let hasNul = bytes.withUnsafeBytes { $0.count > 0 && memchr($0.baseAddress!, 0, $0.count) != nil }
        if hasNul, let nul = bytes.firstIndex(of: 0) {
            let line = bytes[..<nul].reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            return .failure(
                Failure(
                    diagnostic: .error(rule, "'\(display)' holds a NUL byte: not a text configuration", at: SourceLocation(path: display, line: line)),
                    isFolder: false))
        }
        return .success(contents)
    }
}
