/// HAProxy 2.6's refusal of a `timeout` a proxy does not have, in its words
/// (proxy_parse_timeout() in src/proxy.c): 1.x's `contimeout`, `clitimeout` and `srvtimeout`,
/// and any other name.
enum HAProxyTimeoutName {
    static let known: Set<String> = [
        "client", "server", "connect", "check", "queue", "http-keep-alive", "http-request", "tunnel", "tarpit", "client-fin", "server-fin",
    ]
    private static let replaced = ["clitimeout": "client", "srvtimeout": "server", "contimeout": "connect"]

    static func refusal(_ name: String) -> String? {
        if known.contains(name) { return nil }
        if let replacement = replaced[name] {
            return "the '\(name)' directive is not supported anymore since HAProxy 2.1. Use 'timeout \(replacement)'.: HAProxy refuses the file"
        }
        return
            "'timeout' supports 'client', 'server', 'connect', 'check', 'queue', 'http-keep-alive', 'http-request', 'tunnel', 'tarpit', 'client-fin' and 'server-fin' (got '\(name)'): HAProxy refuses the file"
    }
}
