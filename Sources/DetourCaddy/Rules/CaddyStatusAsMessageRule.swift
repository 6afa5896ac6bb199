import DetourDiagnostics

/// `error {rp.status_code}` with one argument: Caddy reads a lone placeholder as the message,
/// so the status becomes 500 whatever the upstream sent.
struct CaddyStatusAsMessageRule: CaddyRule {
    static let about = CaddyRules.errorStatusAsMessage

    func check(_ site: CaddySite, in context: CaddyCheckContext) -> [Diagnostic] {
        site.responseHandlers.flatMap { handler in
            handler.compactMap { line -> Diagnostic? in
                guard line.first?.text == "error", line.count == 2, line[1].text.hasPrefix("{"), line[1].text.hasSuffix("}") else { return nil }
                return Self.finding(
                    "'error \(line[1].text)' has one argument, which Caddy takes as the message: the status becomes 500, not the upstream's",
                    at: context.location(of: line[1]),
                    notes: [
                        Self.fix("error \"upstream error\" \(line[1].text)")
                    ])
            }
        }
    }
}
