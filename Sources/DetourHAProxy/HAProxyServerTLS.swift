import DetourDiagnostics

/// What a `server` or `default-server` line says about TLS to its server, as HAProxy 2.6 keeps
/// it: a server starts from its proxy's `default-server` (which a proxy takes from its defaults).
struct HAProxyServerTLS: Sendable {
    /// `ssl` (true) or `no-ssl` (false); nil when the line says neither.
    var ssl: Bool?
    /// `check-ssl`: the health checks speak TLS.
    var checkSSL = false
    /// `verify none` or `verify required`.
    var verify: String?
    var hasCAFile = false
    /// The `default-server` this one started from had `ssl`: HAProxy prepares TLS for the
    /// server even when it says `no-ssl` (cfgparse.c, SRV_F_DEFSRV_USE_SSL).
    var defaultHadSSL = false

    /// The line's words after the server's name and address (or a `default-server`'s keyword).
    mutating func apply(_ words: ArraySlice<HAProxyWord>) {
        var index = words.startIndex
        while index < words.endIndex {
            switch words[index] {
            case "ssl": ssl = true
            case "no-ssl": ssl = false
            case "check-ssl": checkSSL = true
            case "no-check-ssl": checkSSL = false
            case "verify" where index + 1 < words.endIndex:
                verify = words[index + 1].text
                index += 1
            case "ca-file" where index + 1 < words.endIndex:
                hasCAFile = true
                index += 1
            default: break
            }
            index += 1
        }
    }

    /// A server line's state: its default-server's, then its own words.
    func server(_ words: ArraySlice<HAProxyWord>) -> HAProxyServerTLS {
        var server = self
        server.defaultHadSSL = ssl == true
        server.apply(words)
        return server
    }

    /// HAProxy's words for a server whose TLS verifies its certificate against no CA file
    /// (ssl_sock.c, ssl_sock_prepare_srv_ssl_ctx): `tcpCheckSSL` is a `tcp-check connect …
    /// ssl` in its proxy; `verifiedByDefault`: the global `ssl-server-verify` is `required`
    /// (HAProxy's default).
    func refusal(tcpCheckSSL: Bool, verifiedByDefault: Bool) -> String? {
        guard ssl == true || checkSSL || tcpCheckSSL || defaultHadSSL else { return nil }
        let verifies = verify.map { $0 == "required" } ?? verifiedByDefault
        guard verifies, !hasCAFile else { return nil }
        return verifiedByDefault ? "verify is enabled by default but no CA file specified" : "verify is enabled but no CA file specified"
    }
}
