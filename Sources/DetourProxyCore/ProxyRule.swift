import DetourDiagnostics

/// What every server's rules share: their catalogue entry, and how findings word a fix and a
/// list of codes.
public protocol ProxyRule: Sendable {
    /// Its id, severity and what it means for visitors, as the catalogue lists it.
    static var about: RuleDescription { get }
}

extension ProxyRule {
    public static var id: String { about.id }

    public static func fix(_ text: String) -> Diagnostic.Note { .init("fix: " + text) }

    public static func codes(_ codes: some Sequence<Int>) -> String {
        codes.sorted().map(String.init).joined(separator: ", ")
    }
}
