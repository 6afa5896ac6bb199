/// What Caddy 2.6 refuses in a `tls` directive's values, in its words (parseTLS() in
/// caddyconfig/httpcaddyfile/builtins.go): one argument that is neither `internal` nor an email
/// address (Caddy 1's `tls off`, a file path alone), and a protocol in `protocols` other than
/// the versions it supports (caddytls.SupportedProtocols: `tls1.2`, `tls1.3`).
enum CaddyTLSValues {
    static let protocols: Set<String> = ["tls1.2", "tls1.3"]

    /// Each refused word of a `tls` line and its block, with Caddy's words.
    static func refusals(of line: CaddyLine) -> [(word: CaddyToken, message: String)] {
        var found: [(word: CaddyToken, message: String)] = []
        let open = line.firstIndex { $0.text == "{" && !$0.isQuoted } ?? line.endIndex
        let arguments = line[1..<open]
        if arguments.count == 1, let only = arguments.first, only.text != "internal", !only.text.contains("@") {
            found.append((only, "single argument must either be 'internal' or an email address"))
        }
        for inner in CaddyDirectiveCheck.block(inside: line).lines where inner.first?.text == "protocols" {
            // Caddy reads a minimum and a maximum: words after them are not looked at.
            for word in inner.dropFirst().prefix(2) where !protocols.contains(word.text) {
                found.append((word, "Wrong protocol name or protocol not supported: '\(word.text)'"))
                break
            }
        }
        return found
    }
}
