import DetourDiagnostics

/// Settings a level (http, server, location) hands down to the levels inside it, merged the
/// way nginx merges them: `error_page` and `add_header` at a level replace everything
/// inherited; `root`, `*_intercept_errors`, authentication and access rules are inherited unless set.
struct NginxScope: Sendable {
    var errorPages: [NginxErrorPage] = []
    /// The block whose `error_page` directives are in effect (nil: none anywhere above).
    var errorPagesLevel: ConfigDirective?
    var root = "html"
    var rootDirective: ConfigDirective?
    /// `proxy`, `fastcgi`, `uwsgi`, `scgi`, `grpc` → whether `<module>_intercept_errors on`.
    var intercepts: [String: ConfigDirective] = [:]
    var addHeaders: [ConfigDirective] = []
    /// `auth_basic` and `auth_request` in effect (the innermost setting wins; `off` clears it).
    var authentication: [String: ConfigDirective] = [:]
    /// `allow` and `deny` in effect: a level with any of them replaces the inherited list.
    var accessRules: [ConfigDirective] = []

    static let passModules = ["proxy", "fastcgi", "uwsgi", "scgi", "grpc"]

    /// This scope with `block`'s own directives applied.
    func entering(_ block: ConfigDirective, diagnostics: inout [Diagnostic]) -> NginxScope {
        var scope = self
        let children = block.block ?? []
        let ownPages = children.filter { $0.name == "error_page" }
        if !ownPages.isEmpty {
            scope.errorPages = ownPages.compactMap { NginxErrorPage.read($0, diagnostics: &diagnostics) }
            scope.errorPagesLevel = block
        }
        let ownHeaders = children.filter { $0.name == "add_header" }
        if !ownHeaders.isEmpty { scope.addHeaders = ownHeaders }
        let ownAccess = children.filter { $0.name == "allow" || $0.name == "deny" }
        if !ownAccess.isEmpty { scope.accessRules = ownAccess }
        for child in children {
            switch child.name {
            case "root":
                if let value = child.values.first {
                    scope.root = value
                    scope.rootDirective = child
                }
            case "auth_basic", "auth_request":
                scope.authentication[child.name] = child.values.first == "off" ? nil : child
            default:
                if child.name.hasSuffix("_intercept_errors"), let module = child.name.split(separator: "_").first,
                   Self.passModules.contains(String(module)) {
                    if child.values.first == "on" {
                        scope.intercepts[String(module)] = child
                    } else {
                        scope.intercepts[String(module)] = nil
                    }
                }
            }
        }
        return scope
    }

    /// What keeps visitors out here: `deny all`, then `auth_basic`, then `auth_request`.
    var protections: [ConfigDirective] {
        accessRules.filter { $0.name == "deny" && $0.values.first == "all" }
            + ["auth_basic", "auth_request"].compactMap { authentication[$0] }
    }

    /// Codes covered by the `error_page` directives in effect.
    var coveredCodes: Set<Int> { Set(errorPages.flatMap(\.codes)) }

    func page(for code: Int) -> NginxErrorPage? { errorPages.first { $0.codes.contains(code) } }
}
