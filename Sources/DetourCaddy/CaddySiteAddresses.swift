import DetourDiagnostics
import DetourSupport
import Foundation

/// What `caddy adapt` refuses in the site addresses themselves, naming no line: two site
/// blocks with one address, as Caddy compares them once the environment is read in
/// (`localhost:{$PORT_A}` and `localhost:{$PORT_B}` with neither set are both `localhost:`),
/// each repeat named at its block; and a host no certificate can name (a placeholder left in,
/// `n8n.<domain>`), named at its address.
enum CaddySiteAddresses {
    static func ambiguous(_ config: CaddyConfig) -> [Diagnostic] {
        var first: [String: Int] = [:]
        var found: [Diagnostic] = []
        for (index, block) in config.sites.enumerated() {
            for key in block.keys {
                if let earlier = first[key.text], earlier != index {
                    found.append(.error(CaddyRules.directive.id, "ambiguous site definition: \(key.text)", at: key.location(in: config.files)))
                } else {
                    first[key.text] = first[key.text] ?? index
                }
            }
        }
        return found
    }

    static let unqualifiedPrefix = "subject does not qualify for certificate: "

    /// Hosts Caddy 2.6 would ask a certificate for and refuses as no certificate's subject
    /// (certmagic's SubjectQualifiesForCert, which the adapter applies in tlsapp.go): empty,
    /// starting or ending with a dot, a `*` other than a whole first label, or one of the
    /// characters below. Caddy asks for none where the address is `http://` or on the HTTP
    /// port; a site or global option that chooses the issuer (`tls internal`, `local_certs`,
    /// an ACME setting) skips the test, and such blocks are left alone.
    static func unqualifiedSubjects(_ config: CaddyConfig) -> [Diagnostic] {
        if let global = config.blocks.first, global.isGlobalOptions, global.segments.contains(where: { issuerOptions.contains($0.first?.text ?? "") }) {
            return []
        }
        let httpPort = CaddySandbox.defaultPorts(config).http
        var found: [Diagnostic] = []
        for block in config.sites where !block.segments.contains(where: { $0.first?.text == "tls" }) {
            for key in block.keys {
                guard let host = certificateHost(key.text, httpPort: httpPort), !qualifies(host) else { continue }
                found.append(.error(CaddyRules.directive.id, unqualifiedPrefix + "'\(host)'", at: key.location(in: config.files)))
            }
        }
        return found
    }

    /// Global options that set the issuer of every site's certificates.
    private static let issuerOptions: Set<String> = [
        "cert_issuer", "local_certs", "acme_ca", "acme_ca_root", "acme_dns", "acme_eab", "email", "preferred_chains",
    ]
    /// The bytes certmagic refuses in a subject, all ASCII: read byte by byte, as thousands of
    /// site addresses are.
    private static let unqualifiedBytes: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for byte in "()[]{}<> \t\n\"\\!@#$%^&|;'+=".utf8 { table[Int(byte)] = true }
        return table
    }()

    /// The host a certificate is asked for at `address`: none for `http://`, the HTTP port, or
    /// no host (`:443`).
    private static func certificateHost(_ address: String, httpPort: String) -> Substring? {
        var rest = Substring(address)
        if let separator = ByteSearch.firstRange(of: "://", in: rest) {
            if rest[..<separator.lowerBound] == "http" { return nil }
            rest = rest[separator.upperBound...]
        }
        var authority = rest[..<(rest.utf8.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex)]
        if let colon = authority.utf8.lastIndex(of: UInt8(ascii: ":")), !authority.utf8[colon...].contains(UInt8(ascii: "]")) {
            if authority[authority.utf8.index(after: colon)...] == httpPort { return nil }
            authority = authority[..<colon]
        }
        // An IPv6 literal's brackets are not the host's (`[CF_HOST]` is read as `CF_HOST`).
        if authority.utf8.first == UInt8(ascii: "["), authority.utf8.last == UInt8(ascii: "]") { authority = authority.dropFirst().dropLast() }
        return authority.isEmpty ? nil : authority
    }

    private static func qualifies(_ host: Substring) -> Bool {
        let bytes = host.utf8
        let star = UInt8(ascii: "*")
        return host.unicodeScalars.contains { !$0.properties.isWhitespace } && bytes.first != UInt8(ascii: ".") && bytes.last != UInt8(ascii: ".")
            && (!bytes.contains(star) || host.hasPrefix("*.") || host == "*") && !bytes.contains { unqualifiedBytes[Int($0)] }
    }
}
