import Foundation

/// What Caddy 2.6 refuses in a `reverse_proxy` (or `php_fastcgi`) upstream written as a URL, in
/// its words (parseUpstreamDialAddress() in modules/caddyhttp/reverseproxy/addresses.go): a
/// placeholder beside a scheme, a path, query or fragment (Caddy cannot rewrite between choosing
/// an upstream and proxying to it), a scheme its port contradicts, and upstreams of one proxy
/// with different schemes.
enum CaddyUpstreamAddress {
    static func refusal(of address: String) -> String? {
        guard address.contains("://") else { return nil }
        if address.contains("{") {
            return "due to parsing difficulties, placeholders are not allowed when an upstream address contains a scheme"
        }
        guard let url = URLComponents(string: address) else { return "parsing upstream URL: \(address)" }
        if !url.percentEncodedPath.isEmpty || url.percentEncodedQuery != nil || url.percentEncodedFragment != nil {
            return "for now, URLs for proxy upstreams only support scheme, host, and port components"
        }
        switch (url.scheme, url.port) {
        case ("http", 443): return "upstream address has conflicting scheme (http://) and port (:443, the HTTPS port)"
        case ("https", 80): return "upstream address has conflicting scheme (https://) and port (:80, the HTTP port)"
        case ("h2c", 443): return "upstream address has conflicting scheme (h2c://) and port (:443, the HTTPS port)"
        default: return nil
        }
    }

    /// Each upstream of a `reverse_proxy` or `php_fastcgi` line Caddy refuses, with its words:
    /// one it cannot dial, or a scheme other than the first one written (one transport for all).
    static func refusals(of line: CaddyLine) -> [(word: CaddyToken, message: String)] {
        var found: [(word: CaddyToken, message: String)] = []
        var common: String?
        for word in words(of: line) {
            if let refusal = refusal(of: word.text) {
                found.append((word, refusal))
                continue
            }
            guard let scheme = word.text.range(of: "://").map({ String(word.text[..<$0.lowerBound]) }) else { continue }
            if let common, common != scheme {
                found.append(
                    (word, "for now, all proxy upstreams must use the same scheme (transport protocol); expecting '\(common)://' but got '\(scheme)://'"))
            }
            common = common ?? scheme
        }
        return found
    }

    /// The upstream words of a `reverse_proxy` or `php_fastcgi` line: its arguments after a
    /// matcher, and those of each `to` line in its block.
    static func words(of line: CaddyLine) -> [CaddyToken] {
        let open = line.firstIndex { $0.text == "{" && !$0.isQuoted } ?? line.endIndex
        var words = Array(line[1..<open])
        if let first = words.first, CaddyErrorRoute.isMatcher(first) { words.removeFirst() }
        for inner in CaddyDirectiveCheck.block(inside: line).lines where inner.first?.text == "to" {
            words += inner.dropFirst()
        }
        return words
    }
}
