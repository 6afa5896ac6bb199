import DetourDiagnostics
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
    private static let unqualifiedCharacters = Set("()[]{}<> \t\n\"\\!@#$%^&|;'+=")

    /// The host a certificate is asked for at `address`: none for `http://`, the HTTP port, or
    /// no host (`:443`).
    private static func certificateHost(_ address: String, httpPort: String) -> String? {
        var rest = Substring(address)
        if let separator = rest.range(of: "://") {
            if rest[..<separator.lowerBound] == "http" { return nil }
            rest = rest[separator.upperBound...]
        }
        var authority = rest.prefix { $0 != "/" }
        if let colon = authority.lastIndex(of: ":"), !authority[colon...].contains("]") {
            if authority[authority.index(after: colon)...] == httpPort { return nil }
            authority = authority[..<colon]
        }
        // An IPv6 literal's brackets are not the host's (`[CF_HOST]` is read as `CF_HOST`).
        if authority.hasPrefix("["), authority.hasSuffix("]") { authority = authority.dropFirst().dropLast() }
        return authority.isEmpty ? nil : String(authority)
    }

    private static func qualifies(_ host: String) -> Bool {
        !host.trimmingCharacters(in: .whitespaces).isEmpty && !host.hasPrefix(".") && !host.hasSuffix(".")
            && (!host.contains("*") || host.hasPrefix("*.") || host == "*") && !host.contains(where: unqualifiedCharacters.contains)
    }
}
