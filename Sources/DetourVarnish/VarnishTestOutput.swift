import DetourDiagnostics
import DetourProxyCore
import Foundation

/// What `varnishd -C` said of a sandboxed VCL, read back: the VCC compiler's message as
/// `varnish.syntax` at the original file and line it names (`('file' Line N Pos M)`); a VMOD
/// this Varnish does not have is what the sandbox lacks.
public enum VarnishTestOutput {
    public static func read(_ output: String, copies: [(copy: String, display: String)], main: String) -> SandboxRefusal {
        var reading = SandboxRefusal()
        var text = output
        for file in copies.sorted(by: { $0.copy.count > $1.copy.count }) { text = text.replacingOccurrences(of: file.copy, with: file.display) }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("Message from VCC-compiler:") }) else {
            if let error = lines.first(where: { $0.hasPrefix("Error: ") }) {
                reading.findings.append(.error(VarnishRules.syntax.id, String(error.dropFirst(7)), at: SourceLocation(path: main)))
            }
            return reading
        }
        let message = lines.dropFirst(start + 1).prefix { !$0.contains("Line ") && !$0.isEmpty }.joined(separator: " ")
        if message.contains("Could not find VMOD") || message.contains("Could not open VMOD") || message.contains("Could not load VMOD") {
            reading.missing = "a VMOD this varnishd does not have: \(message)"
            return reading
        }
        var location = SourceLocation(path: main)
        if let place = lines.dropFirst(start + 1).first(where: { $0.contains("' Line ") }),
            let open = place.range(of: "('"), let close = place.range(of: "' Line ", range: open.upperBound..<place.endIndex)
        {
            let after = place[close.upperBound...]
            let number = Int(after.prefix { $0.isNumber }) ?? 1
            let column = after.range(of: " Pos ").map { Int(after[$0.upperBound...].prefix { $0.isNumber }) ?? 1 } ?? 1
            // varnishd names an included file as the include wrote it (`a/../b.vcl`).
            var path = String(place[open.upperBound..<close.lowerBound])
            if path.contains("/../") || path.contains("/./") {
                let standard = (path as NSString).standardizingPath
                path = copies.first { ($0.copy as NSString).standardizingPath == standard }?.display ?? standard
            }
            location = SourceLocation(path: path, line: number, column: column)
        }
        reading.findings.append(.error(VarnishRules.syntax.id, message, at: location))
        return reading
    }
}
