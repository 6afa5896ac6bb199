/// Which nginx directives take a block and which end in `;`, for the two structural errors
/// nginx reports itself. Directives in neither set (third-party modules) are taken as written.
enum NginxDirectiveKinds {
    static let blocks: Set<String> = [
        "events", "http", "server", "location", "if", "map", "geo", "types", "upstream", "limit_except",
        "stream", "mail", "split_clients", "match", "charset_map",
    ]

    static let simple: Set<String> = [
        "listen", "server_name", "root", "alias", "index", "error_page", "include", "return", "rewrite",
        "add_header", "try_files", "internal", "deny", "allow", "auth_basic", "auth_basic_user_file",
        "auth_request", "proxy_pass", "fastcgi_pass", "uwsgi_pass", "scgi_pass", "grpc_pass",
        "proxy_intercept_errors", "fastcgi_intercept_errors", "uwsgi_intercept_errors", "scgi_intercept_errors",
        "grpc_intercept_errors", "recursive_error_pages", "worker_processes", "worker_connections", "user",
        "pid", "error_log", "access_log", "set", "default_type", "expires", "proxy_set_header",
    ]

    /// Third-party blocks whose body is Lua, not nginx syntax (lua-nginx-module, OpenResty).
    static func isLuaBlock(_ name: String) -> Bool {
        name.hasSuffix("_by_lua_block")
    }
}
