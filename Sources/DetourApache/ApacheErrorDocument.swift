import DetourDiagnostics

/// `ErrorDocument <code> <target>` as Apache reads the target: a local URL path, a full URL
/// (a redirect), or text sent as the body. A class: every site shares the main server's, and
/// the rules pass them around.
final class ApacheErrorDocument: Sendable {
    enum Target: Sendable, Equatable {
        case path(String)
        case url(String)
        case text(String)
        /// `default`: Apache's built-in page again.
        case builtIn
    }

    let code: Int
    let target: Target
    let written: String
    let location: SourceLocation
    /// The `<Location>`, `<Directory>` … it is written in; nil at the site's top.
    let section: ApacheScopeReader.Section?

    init(code: Int, written: String, location: SourceLocation, section: ApacheScopeReader.Section? = nil) {
        self.code = code
        self.written = written
        self.location = location
        self.section = section
        if written == "default" {
            target = .builtIn
        } else if written.hasPrefix("/") {
            target = .path(written)
        } else if written.contains("://") {
            target = .url(written)
        } else {
            target = .text(written)
        }
    }
}

extension ApacheErrorDocument {
    /// Written in `<If>`, `<ElseIf>` or `<Else>`: Apache merges it over every `<Location>`
    /// when its condition holds, which detour takes on trust.
    var isConditional: Bool { section?.name == .if || section?.name == .elseif || section?.name == .else }

    /// Written in a `<Directory>`: it answers requests for files there, never a proxied one
    /// (a dead upstream gets Apache's built-in 503; real Apache 2.4.71).
    var isForFilesOnly: Bool { section?.name == .directory }
}
