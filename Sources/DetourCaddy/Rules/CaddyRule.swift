import DetourDiagnostics

/// One check over a Caddy site block, with its catalogue entry.
protocol CaddyRule: Sendable {
    static var about: RuleDescription { get }
    func check(_ site: CaddySite, in context: CaddyCheckContext) -> [Diagnostic]
}

extension CaddyRule {
    static var id: String { about.id }

    static func fix(_ text: String) -> Diagnostic.Note { .init("fix: " + text) }

    static func codes(_ codes: some Sequence<Int>) -> String {
        codes.sorted().map(String.init).joined(separator: ", ")
    }
}
