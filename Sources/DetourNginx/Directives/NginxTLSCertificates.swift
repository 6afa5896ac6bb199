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
        let shared = certificate(in: http)
        var addresses: [String] = []
        var tls: Set<String> = []
        var defaults: [String: NginxDirective] = [:]
        var servers: [String: [NginxDirective]] = [:]
        for server in http where server.kind == .server {
            for listen in server.children where listen.name == "listen" {
                guard let address = listen.firstValue else { continue }
                let key = address.allSatisfy(\.isNumber) ? "*:" + address : address
                if servers[key] == nil { addresses.append(key) }
                if servers[key]?.last?.location != server.location { servers[key, default: []].append(server) }
                let options = listen.values.dropFirst()
                if options.contains("ssl") { tls.insert(key) }
                if defaults[key] == nil, options.contains("default_server") || options.contains("default") { defaults[key] = server }
            }
        }
        guard shared == nil else { return [] }
        var named: Set<SourceLocation> = []
        var found: [Diagnostic] = []
        for key in addresses where tls.contains(key) {
            guard let all = servers[key], let first = defaults[key] ?? all.first else { continue }
            let own = certificate(in: Array(first.children))
            if own == .certificate { continue }
            // A default server that refuses handshakes leaves each other server to need one.
            let lacking = own == .rejects ? all.filter { $0.location != first.location && certificate(in: Array($0.children)) == nil } : [first]
            for server in lacking where named.insert(server.location).inserted {
                found.append(.error(NginxRules.directive.id, message, at: server.location))
            }
        }
        return found
    }

    private enum Cover { case certificate, rejects }

    /// What a block's own directives give: a certificate, or handshakes refused instead.
    private static func certificate(in children: [NginxDirective]) -> Cover? {
        if children.contains(where: { $0.name == "ssl_certificate" }) { return .certificate }
        if children.contains(where: { $0.name == "ssl_reject_handshake" && $0.firstValue == "on" }) { return .rejects }
        return nil
    }
}
