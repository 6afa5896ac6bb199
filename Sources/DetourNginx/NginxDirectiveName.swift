/// The directives detour reads or must know the shape of. The parser recognises them by
/// their bytes, once, so the model switches on this enum instead of comparing strings, and
/// nginx's two structural errors (a block directive ended by `;`, a simple one given a block)
/// are reported like nginx reports them. Other names (third-party modules) are taken as written.
enum NginxDirectiveName: String, CaseIterable, Sendable {
    // Blocks.
    case events, http, server, location, `if`, map, geo, types, upstream
    case limitExcept = "limit_except"
    case stream, mail
    case splitClients = "split_clients"
    case match
    case charsetMap = "charset_map"
    // Simple directives.
    case listen
    case serverName = "server_name"
    case root, alias, index
    case errorPage = "error_page"
    case include
    case `return`, rewrite
    case addHeader = "add_header"
    case tryFiles = "try_files"
    case `internal`, deny, allow
    case authBasic = "auth_basic"
    case authBasicUserFile = "auth_basic_user_file"
    case authRequest = "auth_request"
    case proxyPass = "proxy_pass"
    case fastcgiPass = "fastcgi_pass"
    case uwsgiPass = "uwsgi_pass"
    case scgiPass = "scgi_pass"
    case grpcPass = "grpc_pass"
    case proxyInterceptErrors = "proxy_intercept_errors"
    case fastcgiInterceptErrors = "fastcgi_intercept_errors"
    case uwsgiInterceptErrors = "uwsgi_intercept_errors"
    case scgiInterceptErrors = "scgi_intercept_errors"
    case grpcInterceptErrors = "grpc_intercept_errors"
    case recursiveErrorPages = "recursive_error_pages"
    case workerProcesses = "worker_processes"
    case workerConnections = "worker_connections"
    case user, pid
    case errorLog = "error_log"
    case accessLog = "access_log"
    case set
    case defaultType = "default_type"
    case expires
    case proxySetHeader = "proxy_set_header"
    case limitReq = "limit_req"
    case limitConn = "limit_conn"
    case sslCertificate = "ssl_certificate"
    case sslRejectHandshake = "ssl_reject_handshake"

    /// Whether nginx requires a block (`{ … }`) after this directive inside `parent`; false: it
    /// ends with `;`. One name can be both: `server` opens a block in `http`, but names a
    /// backend inside `upstream`.
    func takesBlock(inside parent: NginxDirectiveName?) -> Bool {
        if self == .server, parent == .upstream { return false }
        return switch self {
        case .events, .http, .server, .location, .if, .map, .geo, .types, .upstream, .limitExcept, .stream,
            .mail, .splitClients, .match, .charsetMap:
            true
        default: false
        }
    }

    /// Whether the block holds entries its module reads itself (`text/html html;`,
    /// `~json json;`): nginx refuses any `{` inside.
    var holdsEntries: Bool {
        switch self {
        case .types, .map, .geo, .splitClients, .charsetMap: true
        default: false
        }
    }

    /// `proxy`, `fastcgi`, … for `<module>_pass`: the location hands requests to an upstream.
    var passModule: String? {
        switch self {
        case .proxyPass, .fastcgiPass, .uwsgiPass, .scgiPass, .grpcPass: String(rawValue.dropLast("_pass".count))
        default: nil
        }
    }

    /// `proxy`, `fastcgi`, … for `<module>_intercept_errors`.
    var interceptModule: String? {
        switch self {
        case .proxyInterceptErrors, .fastcgiInterceptErrors, .uwsgiInterceptErrors, .scgiInterceptErrors, .grpcInterceptErrors:
            String(rawValue.dropLast("_intercept_errors".count))
        default: nil
        }
    }

    /// Names grouped by length: a lookup compares a handful of byte strings, no String is made.
    private static let byLength: [[(bytes: [UInt8], name: NginxDirectiveName)]] = {
        var table = [[(bytes: [UInt8], name: NginxDirectiveName)]](repeating: [], count: 32)
        for name in allCases { table[name.rawValue.utf8.count].append((Array(name.rawValue.utf8), name)) }
        return table
    }()

    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count < Self.byLength.count else { return nil }
        for candidate in Self.byLength[bytes.count] where candidate.bytes.elementsEqual(bytes) {
            self = candidate.name
            return
        }
        return nil
    }

    private static let luaSuffix = Array("_by_lua_block".utf8)

    /// Third-party blocks whose body is Lua, not nginx syntax (lua-nginx-module, OpenResty).
    static func isLuaBlock(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count > luaSuffix.count && bytes[(bytes.count - luaSuffix.count)...].elementsEqual(luaSuffix)
    }
}
