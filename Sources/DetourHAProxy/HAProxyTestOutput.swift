import DetourDiagnostics
import DetourProxyCore
import Foundation

/// What `haproxy -c` said of a sandboxed copy, read back: each `[ALERT]` as a finding at the
/// original file and line, named as `detour check` names it (a page file that cannot be opened
/// `haproxy.error-page-missing-file`, one it cannot parse `haproxy.errorfile-invalid`, a code
/// errorfile cannot answer `haproxy.errorfile-code`, a keyword it does not take or no longer
/// supports `haproxy.directive`, anything else `haproxy.syntax`).
public enum HAProxyTestOutput {
    public static func read(_ output: String, copies: [(copy: String, display: String)], main: String) -> SandboxRefusal {
        var reading = SandboxRefusal()
        if output.contains("has no error but will not start (no listener)") {
            reading.servesNothing = "haproxy: the configuration has no frontend or listen section to serve visitors, nothing to probe"
            return reading
        }
        // An alert goes on over the lines that do not start a message of their own (a server
        // option's refusal is on the next line).
        var alerts: [String] = []
        for raw in output.split(separator: "\n") {
            if raw.hasPrefix("[") {
                if raw.contains("[ALERT]") { alerts.append(String(raw)) } else { alerts.append("") }
            } else if !alerts.isEmpty, !alerts[alerts.count - 1].isEmpty {
                let more = raw.trimmingCharacters(in: .whitespaces)
                // A full stop alone on its line ends the sentence before it.
                let joint = more.allSatisfy { $0 == "." } ? "" : " "
                if !more.isEmpty { alerts[alerts.count - 1] = alerts[alerts.count - 1].trimmingCharacters(in: .whitespaces) + joint + more }
            }
        }
        for alert in alerts where !alert.isEmpty {
            var line = alert.trimmingCharacters(in: .whitespaces)
            for file in copies { line = line.replacingOccurrences(of: file.copy, with: file.display) }
            // `[ALERT]    (1234) : config : parsing [conf/haproxy.cfg:36] : errorfile : …`
            guard var message = line.range(of: ") : ").map({ String(line[$0.upperBound...]) }) else { continue }
            if message.hasPrefix("config : ") { message.removeFirst("config : ".count) }
            // The summary after the alerts names no fault of its own.
            if message.hasPrefix("Fatal errors found in configuration") || message.hasPrefix("Error(s) found in configuration file") { continue }
            // A keyword's parser failing after its own alert said why, at its line.
            if message.hasPrefix("error encountered while processing"), !reading.findings.isEmpty { continue }
            var location = SourceLocation(path: main, line: 1, column: 1)
            if let open = message.range(of: "["), let close = message.range(of: "]", range: open.upperBound..<message.endIndex) {
                let place = message[open.upperBound..<close.lowerBound]
                if let colon = place.lastIndex(of: ":"), let number = Int(place[place.index(after: colon)...]) {
                    location = SourceLocation(path: String(place[..<colon]), line: number, column: 1)
                    message = String(message[close.upperBound...]).trimmingCharacters(in: CharacterSet(charactersIn: " :"))
                }
            } else if let section = Self.firstSection(in: message) {
                // What HAProxy finds once it has read the files names the section it is about:
                // `http frontend 'web' (haproxy.cfg:21) tries to use …`.
                location = section
            } else if let section = Self.proxySection(in: message, copies: copies) {
                location = section
            }
            let rule =
                message.contains("error opening file")
                ? HAProxyRules.missingFile.id
                : message.contains("unable to parse headers") || message.contains("exceeds the buffer")
                    ? HAProxyRules.errorfileInvalid.id
                    : message.contains("not handled")
                        ? HAProxyRules.errorfileCode.id
                        : message.hasPrefix("unknown keyword") || message.hasPrefix("unknown option") || message.contains("not supported any")
                            || message.contains("not allowed because")
                            ? HAProxyRules.directive.id : HAProxyRules.syntax.id
            reading.findings.append(.error(rule, message, at: location))
        }
        return reading
    }

    /// The section of a message that names a proxy only (`Proxy 'mssql' : 'option
    /// external-check' …`): a backend or listen section of that name (what HAProxy checks once
    /// it has read the files is mostly a backend's), else any, in the copies, whose lines are the
    /// originals'.
    static func proxySection(in message: String, copies: [(copy: String, display: String)]) -> SourceLocation? {
        guard let match = message.firstMatch(of: /^Proxy '([^']+)'/) else { return nil }
        let name = String(match.output.1)
        var any: SourceLocation?
        for file in copies {
            guard let text = try? String(contentsOfFile: file.copy, encoding: .utf8) else { continue }
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
                guard words.count >= 2, words[1] == name, ["backend", "listen", "frontend", "defaults"].contains(words[0]) else { continue }
                let location = SourceLocation(path: file.display, line: index + 1, column: 1)
                if words[0] == "backend" || words[0] == "listen" { return location }
                any = any ?? location
            }
        }
        return any
    }

    /// The first `(file:line)` of a message, where a file of the configuration is named so.
    static func firstSection(in message: String) -> SourceLocation? {
        guard let match = message.firstMatch(of: /\(([^()\s]+):(\d+)\)/), let line = Int(match.output.2) else { return nil }
        return SourceLocation(path: String(match.output.1), line: line, column: 1)
    }
}
