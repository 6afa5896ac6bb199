import DetourSupport
import Foundation

/// One JSON line per request on standard output, as log collectors in a cluster read them:
/// what was asked (the ingress' headers), what was answered, and how long it took.
struct RequestLog: Sendable {
    enum Value {
        case number(Int)
        case text(String)
    }

    var enabled: Bool

    /// Fields whose value is nil are left out; with the log off, none is even made.
    func write(_ fields: @autoclosure () -> KeyValuePairs<String, Value?>) {
        guard enabled else { return }
        var line = "{"
        for (key, value) in fields() {
            guard let value else { continue }
            if line.count > 1 { line += "," }
            line += "\"\(key)\":"
            switch value {
            case .number(let number): line += String(number)
            case .text(let text): line += JSONString.quoted(text, .document)
            }
        }
        line += "}\n"
        // One write per line: lines of concurrent requests do not interleave.
        FileHandle.standardOutput.write(Data(line.utf8))
    }
}
