/// The directives Debian's Caddy 2.6 knows in a site block (its standard modules register
/// them; `tracing` is not built in), and those whose block holds directives again.
/// `CaddyDirectiveTests` checks the list against the installed `caddy adapt`.
enum CaddyDirectives {
    static let known: Set<String> = [
        "abort", "acme_server", "basicauth", "bind", "copy_response", "copy_response_headers", "encode", "error",
        "file_server", "forward_auth", "handle", "handle_errors", "handle_path", "header", "log", "map", "method",
        "metrics", "php_fastcgi", "push", "redir", "request_body", "request_header", "respond", "reverse_proxy",
        "rewrite", "root", "route", "skip_log", "templates", "tls", "try_files", "uri", "vars",
    ]

    /// Blocks whose lines are directives of their own.
    static let routes: Set<String> = ["handle", "handle_path", "handle_errors", "route"]
}
