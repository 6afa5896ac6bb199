import DetourDiagnostics
import DetourProxyCore
import Foundation

/// What `apache2 -t` said of a sandboxed copy, read back: `Syntax error on line N of FILE:`
/// and the message after it as `apache.syntax` at the original file and line; a module file
/// this machine does not have is what the sandbox lacks.
public enum ApacheTestOutput {
    public static func read(_ output: String, copies: [(copy: String, display: String)], main: String) -> SandboxRefusal {
        var reading = SandboxRefusal()
        var text = output
        for file in copies.sorted(by: { $0.copy.count > $1.copy.count }) { text = text.replacingOccurrences(of: file.copy, with: file.display) }
        let lines = text.split(separator: "\n").map(String.init)
        for (index, line) in lines.enumerated() {
            guard let marker = line.range(of: "Syntax error on line "), var place = Self.place(line[marker.upperBound...]) else { continue }
            // An included file's error is told inside its includer's: `Syntax error on line 222
            // of apache2.conf: Syntax error on line 72 of site.conf: …`; the innermost is the line.
            while place.message.hasPrefix("Syntax error on line "), let inner = Self.place(place.message.dropFirst("Syntax error on line ".count)) {
                place = inner
            }
            if place.message.isEmpty, index + 1 < lines.count { place.message = lines[index + 1] }
            if place.message.contains("Cannot load ") && place.message.contains("cannot open shared object") {
                reading.missing = "a module file this Apache does not have: \(place.message)"
                continue
            }
            reading.findings.append(.error(ApacheRules.syntax.id, place.message, at: SourceLocation(path: place.path, line: place.line)))
        }
        return reading
    }

    /// `N of FILE: message`: the line, the file and what follows.
    private static func place(_ rest: Substring) -> (line: Int, path: String, message: String)? {
        let number = Int(rest.prefix { $0.isNumber }) ?? 1
        guard let of = rest.range(of: " of ") else { return nil }
        let afterOf = rest[of.upperBound...]
        // `FILE:` ends the place; the message follows on the line, or on the next.
        let colon = afterOf.range(of: ": ") ?? afterOf.range(of: ":", options: .backwards)
        let path = String(afterOf[..<(colon?.lowerBound ?? afterOf.endIndex)])
        let message = colon.map { String(afterOf[$0.upperBound...]).trimmingCharacters(in: .whitespaces) } ?? ""
        return (number, path, message)
    }
}
