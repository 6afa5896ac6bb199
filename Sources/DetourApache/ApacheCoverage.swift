/// Which page answers each code in a site: the ErrorDocument's target as written, nil when
/// none does. A 5xx counts only where the site proxies; elsewhere Apache has little to fail.
enum ApacheCoverage {
    static func answers(_ scope: ApacheScope, codes: [Int]) -> [(code: Int, answer: String?)] {
        let proxies = scope.proxyPasses.contains { !$0.excluded }
        return codes.filter { $0 < 500 || proxies }.map { code in
            guard let document = scope.errorDocument(for: code), document.target != .builtIn else { return (code, nil) }
            return (code, document.written)
        }
    }
}
