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

    /// A finding of this rule, at the severity the catalogue gives it: what every visitor of
    /// the route meets is an error, what depends on the request or the upstream a warning,
    /// hardening a note.
    public static func finding(_ message: String, at location: SourceLocation, notes: [Diagnostic.Note] = [], codes: [Int]? = nil) -> Diagnostic {
        Diagnostic(about.severity, id, message, at: location, notes: notes, codes: codes)
    }

    /// The fix for a page file that is not where the server reads it: `text` says where to put
    /// it in the server's terms; `--map` is how detour checks a deployment path here.
    public static func fixMissingFile(_ text: String) -> Diagnostic.Note {
        fix(text + "; --map INSTALL_PATH=LOCAL_DIR checks a deployment path against a local copy")
    }

    public static func codes(_ codes: some Sequence<Int>) -> String {
        codes.sorted().map(String.init).joined(separator: ", ")
    }
}
