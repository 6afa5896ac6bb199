import DetourDiagnostics

/// The servers HAProxy refuses to start with because their TLS would verify a certificate
/// against no CA file. Decided once every section is read: the global `ssl-server-verify` and a
/// proxy's `tcp-check connect … ssl` count wherever they stand.
struct HAProxyServerVerify: Sendable {
    private struct Server: Sendable {
        /// Its proxy's name and its own, joined only for a refusal: most servers have none.
        var proxy: String?
        var own: String
        var name: String { "\(proxy ?? "")/\(own)" }
        var section: SourceLocation
        var line: SourceLocation
        var tls: HAProxyServerTLS
    }

    private var servers: [Server] = []
    private var tcpCheckSSL = Set<SourceLocation>()
    /// `ssl-server-verify`: `required` unless the global section says `none`.
    private var verifiedByDefault = true

    mutating func readGlobal(_ line: HAProxyLine) {
        if line.knownKeyword == .sslServerVerify, line.words.count >= 2 { verifiedByDefault = line.words[1].text != "none" }
    }

    /// A proxy's line: its servers as its `default-server` left them, and its TCP checks.
    mutating func read(_ line: HAProxyLine, in section: HAProxySection, defaultServer: HAProxyServerTLS) {
        let words = line.words
        switch line.knownKeyword {
        case .server where words.count >= 3:
            servers.append(
                Server(proxy: section.name, own: words[1].text, section: section.location, line: line.location, tls: defaultServer.server(words[3...])))
        case .serverTemplate where words.count >= 4:
            servers.append(
                Server(proxy: section.name, own: words[1].text, section: section.location, line: line.location, tls: defaultServer.server(words[4...])))
        case .tcpCheck where Self.connectsOverTLS(line):
            tcpCheckSSL.insert(section.location)
        default:
            break
        }
    }

    /// `tcp-check connect … ssl`: HAProxy prepares TLS for every server of its proxy.
    static func connectsOverTLS(_ line: HAProxyLine) -> Bool {
        line.knownKeyword == .tcpCheck && line.words.count >= 2 && line.words[1].text == "connect" && line.words.dropFirst(2).contains { $0.text == "ssl" }
    }

    /// The servers HAProxy refuses, each with its words, in order: decided once.
    private var refused: [(server: Server, words: String)] {
        servers.compactMap { server in
            server.tls.refusal(tcpCheckSSL: tcpCheckSSL.contains(server.section), verifiedByDefault: verifiedByDefault).map { (server, $0) }
        }
    }

    /// HAProxy's refusals, and the lines of the servers it refuses.
    var refusals: (diagnostics: [Diagnostic], lines: Set<SourceLocation>) {
        let refused = self.refused
        let diagnostics = refused.map { server, words in
            Diagnostic.error(
                HAProxyRules.syntax.id,
                "server '\(server.name)' speaks TLS and checks its certificate against no CA file: HAProxy refuses the file ('\(words)')", at: server.line,
                notes: [
                    .init(
                        "fix: give the server the CA that signed its certificate ('ca-file /etc/ssl/certs/ca-certificates.crt', or '@system-ca'), or 'verify none' where it is on a network you trust"
                    )
                ])
        }
        return (diagnostics, Set(refused.map(\.server.line)))
    }
}
