import DetourDiagnostics
import DetourProxyCore
import Foundation

/// What `caddy adapt` or `caddy validate` said of a sandboxed copy, read back: its `Error:`
/// as a finding at the original file and line, named as `detour check` names its class
/// (`caddy.import`, `caddy.directive`, `caddy.syntax`); or, when Caddy lacks a module the
/// configuration names (a plugin this build does not have), why the sandbox cannot run it.
public enum CaddyTestOutput {
    public static func read(_ output: String, copies: [(copy: String, display: String)], main: String) -> SandboxRefusal {
        var reading = SandboxRefusal()
        // Longer copies first: one file's copy may be the start of another's.
        let copies = copies.sorted { $0.copy.count > $1.copy.count }
        for raw in output.split(separator: "\n") where raw.hasPrefix("Error: ") {
            var message = String(raw.dropFirst("Error: ".count))
            for file in copies { message = message.replacingOccurrences(of: file.copy, with: file.display) }
            if message.contains("module not registered") || message.contains("unknown module") {
                reading.missing = "a module this caddy does not have: \(message)"
                continue
            }
            // `FILE:LINE - Error during parsing: …`, `FILE:LINE: unrecognized directive: …`,
            // `parsing caddyfile tokens for 'handle': FILE:12 - … for 'root': FILE:9 - …`: the
            // innermost place, the last named, is the fault's.
            var last: (at: String.Index, location: SourceLocation)?
            for file in copies {
                let escaped = NSRegularExpression.escapedPattern(for: file.display)
                var searched = message.startIndex..<message.endIndex
                while let place = message.range(of: "\(escaped):[0-9]+", options: .regularExpression, range: searched) {
                    let number = message[place].dropFirst(file.display.count + 1)
                    if place.lowerBound >= last?.at ?? message.startIndex {
                        last = (place.lowerBound, SourceLocation(path: file.display, line: Int(number) ?? 1, column: 1))
                    }
                    searched = place.upperBound..<message.endIndex
                }
            }
            let location = last?.location ?? Self.siteAddressFault(message, copies: copies, main: main) ?? SourceLocation(path: main, line: 1, column: 1)
            let rule =
                message.contains("import") && (message.contains("not found") || message.contains("Could not import"))
                ? CaddyRules.importFailed.id
                // A name Caddy does not know (a directive, a global option, a block's option)
                // is one statement refused, as check names it.
                : message.contains("unrecognized ") || message.contains("parsing caddyfile tokens for")
                    || message.contains("Wrong argument count") ? CaddyRules.directive.id : CaddyRules.syntax.id
            // `root /srv` and `handle_errors 5xx { … }` are Caddy 2.8's forms: judged, as check
            // judges them, as that Caddy would serve the rest.
            if message.contains("Wrong argument count"), let name = Self.innermostDirective(message), Self.laterForms.contains(name) {
                reading.anotherEdition = true
            }
            // An option inside a block this Caddy reads (`servers { trusted_proxies … }`, an ACME
            // issuer's `profile`: later Caddys' options) is set aside, and the rest judged as
            // served without it; the refusal stays an error.
            if Self.isUnknownOption(message) { reading.anotherEdition = true }
            reading.findings.append(.error(rule, message, at: location))
        }
        return reading
    }

    /// `unrecognized servers option 'trusted_proxies'`, `unrecognized ACME issuer property:
    /// profile`, `unrecognized subdirective …`: one line of a block, not the block itself.
    static func isUnknownOption(_ message: String) -> Bool {
        guard let range = message.range(of: "unrecognized ", options: .backwards) else { return false }
        let rest = message[range.upperBound...].prefix { $0 != "'" && $0 != ":" }
        return rest.hasSuffix("option ") || rest.hasSuffix("property") || rest.hasSuffix("subdirective ") || rest.hasSuffix("subdirective")
    }

    /// Caddy names no line for two sites with one address or a host no certificate can name:
    /// the main file's copy is read as check reads it, and the fault named where check names it.
    private static func siteAddressFault(_ message: String, copies: [(copy: String, display: String)], main: String) -> SourceLocation? {
        guard message.hasPrefix("ambiguous site definition: ") || message.hasPrefix(CaddySiteAddresses.unqualifiedPrefix),
            let copy = copies.first(where: { $0.display == main })
        else { return nil }
        let config = CaddyConfig.load(main: URL(fileURLWithPath: copy.copy), displayPath: main)
        let faults = CaddySiteAddresses.ambiguous(config) + CaddySiteAddresses.unqualifiedSubjects(config)
        return faults.first { $0.message == message && $0.location.path == main }?.location
    }

    /// Directives a later Caddy (2.8) takes in a form 2.6 refuses for its argument count.
    static let laterForms: Set<String> = ["root", "handle_errors"]

    /// The last `for 'name'` of a `parsing caddyfile tokens for 'handle': … for 'root': …`.
    private static func innermostDirective(_ message: String) -> String? {
        guard let start = message.range(of: "tokens for '", options: .backwards)?.upperBound else { return nil }
        return String(message[start...].prefix { $0 != "'" })
    }
}
