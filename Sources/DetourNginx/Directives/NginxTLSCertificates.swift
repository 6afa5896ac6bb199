import DetourDiagnostics

/// What nginx refuses once it has read every server: an address a `listen … ssl` opens whose
/// default server (the one marked `default_server` there, else the first to listen there) has no
/// `ssl_certificate` of its own or from `http`; where that server refuses handshakes
/// (`ssl_reject_handshake on`), each other server there without one or the other. nginx names
/// the server's block (ngx_http_ssl_init() in src/http/modules/ngx_http_ssl_module.c).
enum NginxTLSCertificates {
    static let message = "no \"ssl_certificate\" is defined for the \"listen ... ssl\" directive"

    static func check(_ top: [NginxDirective]) -> [Diagnostic] {
        let https = top.filter { $0.kind == .http }
        // A site's file read alone: its server blocks stand where http's would.
        if https.isEmpty { return check(http: top) }
        return https.flatMap { check(http: Array($0.children)) }
    }

    private static func check(http: [NginxDirective]) -> [Diagnostic] {
        // Names are compared as kinds, options in place and servers by entry: thousands of
        // servers make no strings here but their addresses.
        guard certificate(in: http) == nil else { return [] }
        // Each address once, in the order first written, found by one lookup per `listen`.
        var addresses: [Address] = []
        var byKey: [String: Int] = [:]
        for server in http where server.kind == .server {
            for listen in server.children where listen.kind == .listen {
                guard let address = listen.firstValue else { continue }
                let key = address.utf8.allSatisfy { (0x30...0x39).contains($0) } ? "*:" + address : address
                let slot = byKey[key] ?? addresses.count
                if slot == addresses.count {
                    byKey[key] = slot
                    addresses.append(Address())
                }
                if addresses[slot].servers.last != server { addresses[slot].servers.append(server) }
                if listen.hasOption("ssl") { addresses[slot].isTLS = true }
                if addresses[slot].defaultServer == nil, listen.hasOption("default_server") || listen.hasOption("default") {
                    addresses[slot].defaultServer = server
                }
            }
        }
        var named: Set<SourceLocation> = []
        var found: [Diagnostic] = []
        for address in addresses where address.isTLS {
            let all = address.servers
            guard let first = address.defaultServer ?? all.first else { continue }
            let own = certificate(in: first.children)
            if own == .certificate { continue }
            // A default server that refuses handshakes leaves each other server to need one.
            let lacking = own == .rejects ? all.filter { $0 != first && certificate(in: $0.children) == nil } : [first]
            for server in lacking where named.insert(server.location).inserted {
                found.append(.error(NginxRules.directive.id, message, at: server.location))
            }
        }
        return found
    }

    /// One address `listen` opens: the servers there in order, the one marked default, and
    /// whether any `listen` there asks for TLS.
    private struct Address {
        var servers: [NginxDirective] = []
        var defaultServer: NginxDirective?
        var isTLS = false
    }

    private enum Cover { case certificate, rejects }

    /// What a block's own directives give: a certificate, or handshakes refused instead.
    private static func certificate(in children: some Sequence<NginxDirective>) -> Cover? {
        if children.contains(where: { $0.kind == .sslCertificate }) { return .certificate }
        if children.contains(where: { $0.kind == .sslRejectHandshake && $0.firstValue == "on" }) { return .rejects }
        return nil
    }
}
