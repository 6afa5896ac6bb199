import DetourDiagnostics

/// One check over a configuration. Each rule has its own id, a located message that says
/// what visitors would see, and a one-line fix as a note.
protocol NginxRule: Sendable {
    static var id: String { get }
    func check(_ context: NginxCheckContext) -> [Diagnostic]
}

extension NginxRule {
    static func fix(_ text: String) -> Diagnostic.Note { .init("fix: " + text) }

    static func codes(_ codes: some Sequence<Int>) -> String {
        codes.sorted().map(String.init).joined(separator: ", ")
    }
}
