import DetourDiagnostics

/// `ErrorDocument <code> <target>` as Apache reads the target: a local URL path, a full URL
/// (a redirect), or text sent as the body.
struct ApacheErrorDocument: Sendable {
    enum Target: Sendable, Equatable {
        case path(String)
        case url(String)
        case text(String)
        /// `default`: Apache's built-in page again.
        case builtIn
    }

    var code: Int
    var target: Target
    var written: String
    var location: SourceLocation

    init?(_ directive: ApacheDirective) {
        guard directive.arguments.count == 2, let code = Int(directive.arguments[0]) else { return nil }
        self.code = code
        written = directive.arguments[1]
        location = directive.location
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
