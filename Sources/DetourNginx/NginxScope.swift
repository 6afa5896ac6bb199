import DetourDiagnostics

/// Settings a level (http, server, location) hands down to the levels inside it, merged the
/// way nginx merges them: `error_page` and `add_header` at a level replace everything
/// inherited; `root`, `*_intercept_errors`, authentication and access rules are inherited unless set.
struct NginxScope: Sendable {
    /// The settings, shared by the copies of a scope until one changes them: a scope is
    /// handed to every location of every server, and its dozen lists and tables would each be
    /// counted on every copy.
    private final class Storage: @unchecked Sendable {
        var errorPages: [NginxErrorPage] = []
        var coveredCodes: Set<Int> = []
        var errorPagesLevel: NginxDirective?
        var root = "html"
        var rootDirective: NginxDirective?
        var intercepts: [String: NginxDirective] = [:]
        var addHeaders: [NginxDirective] = []
        var authBasic: NginxDirective?
        var authRequest: NginxDirective?
        var accessRules: [NginxDirective] = []
        var limit: NginxDirective?
        var mapValues: [String: [String]] = [:]

        init() {}

        init(copying other: Storage) {
            (errorPages, coveredCodes, errorPagesLevel, root, rootDirective, intercepts) =
                (other.errorPages, other.coveredCodes, other.errorPagesLevel, other.root, other.rootDirective, other.intercepts)
            (addHeaders, authBasic, authRequest, accessRules, limit, mapValues) =
                (other.addHeaders, other.authBasic, other.authRequest, other.accessRules, other.limit, other.mapValues)
        }
    }

    private var storage = Storage()

    /// The storage, copied first if another scope shares it.
    private var unique: Storage {
        mutating get {
            if !isKnownUniquelyReferenced(&storage) { storage = Storage(copying: storage) }
            return storage
        }
    }

    private(set) var errorPages: [NginxErrorPage] {
        get { storage.errorPages }
        _modify { yield &unique.errorPages }
    }
    /// Codes covered by the `error_page` directives in effect; kept with them, as several
    /// rules ask for every location.
    private(set) var coveredCodes: Set<Int> {
        get { storage.coveredCodes }
        _modify { yield &unique.coveredCodes }
    }
    /// The block whose `error_page` directives are in effect (nil: none anywhere above).
    var errorPagesLevel: NginxDirective? {
        get { storage.errorPagesLevel }
        _modify { yield &unique.errorPagesLevel }
    }
    var root: String {
        get { storage.root }
        _modify { yield &unique.root }
    }
    var rootDirective: NginxDirective? {
        get { storage.rootDirective }
        _modify { yield &unique.rootDirective }
    }
    /// `proxy`, `fastcgi`, `uwsgi`, `scgi`, `grpc` → its `<module>_intercept_errors on`, if on.
    var intercepts: [String: NginxDirective] {
        get { storage.intercepts }
        _modify { yield &unique.intercepts }
    }
    var addHeaders: [NginxDirective] {
        get { storage.addHeaders }
        _modify { yield &unique.addHeaders }
    }
    /// `auth_basic` and `auth_request` in effect (the innermost setting wins; `off` clears it).
    var authBasic: NginxDirective? {
        get { storage.authBasic }
        _modify { yield &unique.authBasic }
    }
    var authRequest: NginxDirective? {
        get { storage.authRequest }
        _modify { yield &unique.authRequest }
    }
    /// `allow` and `deny` in effect: a level with any of them replaces the inherited list.
    var accessRules: [NginxDirective] {
        get { storage.accessRules }
        _modify { yield &unique.accessRules }
    }
    /// A `limit_req` or `limit_conn` in effect: nginx answers 503 to requests over the limit.
    var limit: NginxDirective? {
        get { storage.limit }
        _modify { yield &unique.limit }
    }
    /// Variables that http-level `map`s give literal values, for following variable targets.
    var mapValues: [String: [String]] {
        get { storage.mapValues }
        _modify { yield &unique.mapValues }
    }

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
