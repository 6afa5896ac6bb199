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
            guard let marker = line.range(of: "Syntax error on line ") else { continue }
            let rest = line[marker.upperBound...]
            let number = Int(rest.prefix { $0.isNumber }) ?? 1
            guard let of = rest.range(of: " of ") else { continue }
            let afterOf = rest[of.upperBound...]
            // `FILE:` ends the place; the message follows on the line, or on the next.
            let colon = afterOf.range(of: ": ") ?? afterOf.range(of: ":", options: .backwards)
            let path = String(afterOf[..<(colon?.lowerBound ?? afterOf.endIndex)])
            var message = colon.map { String(afterOf[$0.upperBound...]).trimmingCharacters(in: .whitespaces) } ?? ""
            if message.isEmpty, index + 1 < lines.count { message = lines[index + 1] }
            if message.contains("Cannot load ") && message.contains("cannot open shared object") {
                reading.missing = "a module file this Apache does not have: \(message)"
                continue
            }
            reading.findings.append(.error(ApacheRules.syntax.id, message, at: SourceLocation(path: path, line: number)))
        }
        return reading
    }
}
