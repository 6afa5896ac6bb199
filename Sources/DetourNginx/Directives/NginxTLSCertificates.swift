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
        // Names are compared as kinds and servers by entry: thousands of servers make no strings
        // here but their addresses.
        guard certificate(in: http) == nil else { return [] }
        var addresses: [String] = []
        var tls: Set<String> = []
        var defaults: [String: NginxDirective] = [:]
        var servers: [String: [NginxDirective]] = [:]
        for server in http where server.kind == .server {
            for listen in server.children where listen.kind == .listen {
                guard let address = listen.firstValue else { continue }
                let key = address.utf8.allSatisfy { (0x30...0x39).contains($0) } ? "*:" + address : address
                if servers[key] == nil { addresses.append(key) }
                if servers[key]?.last != server { servers[key, default: []].append(server) }
                let options = listen.values.dropFirst()
                if options.contains("ssl") { tls.insert(key) }
                if defaults[key] == nil, options.contains("default_server") || options.contains("default") { defaults[key] = server }
            }
        }
        var named: Set<SourceLocation> = []
        var found: [Diagnostic] = []
        for key in addresses where tls.contains(key) {
            guard let all = servers[key], let first = defaults[key] ?? all.first else { continue }
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

    private enum Cover { case certificate, rejects }

    /// What a block's own directives give: a certificate, or handshakes refused instead.
    private static func certificate(in children: some Sequence<NginxDirective>) -> Cover? {
        if children.contains(where: { $0.kind == .sslCertificate }) { return .certificate }
        if children.contains(where: { $0.kind == .sslRejectHandshake && $0.firstValue == "on" }) { return .rejects }
        return nil
    }
}
