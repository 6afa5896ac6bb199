/// The directives detour reads or must know the shape of. The parser recognises them by
/// their bytes, once, so the model switches on this enum instead of comparing strings, and
/// nginx's two structural errors (a block directive ended by `;`, a simple one given a block)
/// are reported like nginx reports them. Other names (third-party modules) are taken as written.
enum NginxDirectiveName: String, CaseIterable, Sendable {
    // Blocks.
    case events, http, server, location, `if`, map, geo, types, upstream
    case limitExcept = "limit_except", stream, mail, splitClients = "split_clients", match
    case charsetMap = "charset_map"
    // Simple directives.
    case listen, serverName = "server_name", root, alias, index, errorPage = "error_page", include
    case `return`, rewrite, addHeader = "add_header", tryFiles = "try_files", `internal`, deny, allow
    case authBasic = "auth_basic", authBasicUserFile = "auth_basic_user_file", authRequest = "auth_request"
    case proxyPass = "proxy_pass", fastcgiPass = "fastcgi_pass", uwsgiPass = "uwsgi_pass"
    case scgiPass = "scgi_pass", grpcPass = "grpc_pass"
    case proxyInterceptErrors = "proxy_intercept_errors", fastcgiInterceptErrors = "fastcgi_intercept_errors"
    case uwsgiInterceptErrors = "uwsgi_intercept_errors", scgiInterceptErrors = "scgi_intercept_errors"
    case grpcInterceptErrors = "grpc_intercept_errors", recursiveErrorPages = "recursive_error_pages"
    case workerProcesses = "worker_processes", workerConnections = "worker_connections", user, pid
    case errorLog = "error_log", accessLog = "access_log", set, defaultType = "default_type", expires
    case proxySetHeader = "proxy_set_header", limitReq = "limit_req", limitConn = "limit_conn"

    /// Whether nginx requires a block (`{ … }`) after this directive inside `parent`; false: it
    /// ends with `;`. One name can be both: `server` opens a block in `http`, but names a
    /// backend inside `upstream`.
    func takesBlock(inside parent: NginxDirectiveName?) -> Bool {
        if self == .server, parent == .upstream { return false }
        return switch self {
        case .events, .http, .server, .location, .if, .map, .geo, .types, .upstream, .limitExcept, .stream,
             .mail, .splitClients, .match, .charsetMap: true
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
