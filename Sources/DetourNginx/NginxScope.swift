import DetourDiagnostics

/// Settings a level (http, server, location) hands down to the levels inside it, merged the
/// way nginx merges them: `error_page` and `add_header` at a level replace everything
/// inherited; `root`, `*_intercept_errors`, authentication and access rules are inherited unless set.
struct NginxScope: Sendable {
    private(set) var errorPages: [NginxErrorPage] = []
    /// Codes covered by the `error_page` directives in effect; kept with them, as several
    /// rules ask for every location.
    private(set) var coveredCodes: Set<Int> = []
    /// The block whose `error_page` directives are in effect (nil: none anywhere above).
    var errorPagesLevel: NginxDirective?
    var root = "html"
    var rootDirective: NginxDirective?
    /// `proxy`, `fastcgi`, `uwsgi`, `scgi`, `grpc` → its `<module>_intercept_errors on`, if on.
    var intercepts: [String: NginxDirective] = [:]
    var addHeaders: [NginxDirective] = []
    /// `auth_basic` and `auth_request` in effect (the innermost setting wins; `off` clears it).
    var authBasic: NginxDirective?
    var authRequest: NginxDirective?
    /// `allow` and `deny` in effect: a level with any of them replaces the inherited list.
    var accessRules: [NginxDirective] = []
    /// A `limit_req` or `limit_conn` in effect: nginx answers 503 to requests over the limit.
    var limit: NginxDirective?
    /// Variables that http-level `map`s give literal values, for following variable targets.
    var mapValues: [String: [String]] = [:]

    /// This scope with `block`'s own directives applied.
    func entering(_ block: NginxDirective, diagnostics: inout [Diagnostic]) -> NginxScope {
        var scope = self
        var ownPages: [NginxErrorPage]?
        var ownHeaders: [NginxDirective] = []
        var ownAccess: [NginxDirective] = []
        for child in block.children {
            switch child.kind {
            case .errorPage:
                if ownPages == nil { ownPages = [] }
                ownPages?.append(contentsOf: NginxErrorPage.read(child, variables: mapValues, diagnostics: &diagnostics))
            case .addHeader: ownHeaders.append(child)
            case .allow, .deny: ownAccess.append(child)
            case .root:
                if let value = child.firstValue {
                    scope.root = value
                    scope.rootDirective = child
                }
            case .authBasic: scope.authBasic = child.firstValue == "off" ? nil : child
            case .authRequest: scope.authRequest = child.firstValue == "off" ? nil : child
            case .limitReq, .limitConn: scope.limit = scope.limit ?? child
            case let kind?:
                if let module = kind.interceptModule {
                    scope.intercepts[module] = child.firstValue == "on" ? child : nil
                }
            case nil:
                break
            }
        }
        if let ownPages {
            scope.errorPages = ownPages
            scope.coveredCodes = Set(ownPages.flatMap(\.codes))
            scope.errorPagesLevel = block
        }
        if !ownHeaders.isEmpty { scope.addHeaders = ownHeaders }
        if !ownAccess.isEmpty { scope.accessRules = ownAccess }
        return scope
    }

    /// What keeps visitors out here: `deny all`, then `auth_basic`, then `auth_request`.
    var protections: [NginxDirective] {
        accessRules.filter { $0.kind == .deny && $0.firstValue == "all" } + [authBasic, authRequest].compactMap { $0 }
    }

    func page(for code: Int) -> NginxErrorPage? { errorPages.first { $0.codes.contains(code) } }
}
