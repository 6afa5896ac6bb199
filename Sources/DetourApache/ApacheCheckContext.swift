import DetourDiagnostics
import DetourProxyCore

/// What the rules work from besides the model: the codes detour made pages for, the page
/// files through the path maps, and what answers each code in each site (the coverage table's
/// rows, worked out once for it and for the rules).
struct ApacheCheckContext: Sendable {
    let pageCodes: [Int]
    let pageFiles: PageFileLookup
    /// By site, in `ApacheModel.sites` order.
    let answers: [[(code: Int, answer: String?)]]

    /// The local URL paths an ErrorDocument target names: `%{ENV:NAME}` takes each value the
    /// configuration sets (`SetEnv`, `SetEnvIf`); nil when it holds another expression.
    static func paths(of target: String, in scope: ApacheScope) -> [String]? {
        guard target.utf8.contains(UInt8(ascii: "%")) else { return [target] }
        var paths = [""]
        var rest = Substring(target)
        while let open = rest.range(of: "%{") {
            guard let close = rest[open.upperBound...].firstIndex(of: "}") else { return nil }
            let name = rest[open.upperBound..<close]
            guard name.hasPrefix("ENV:"), let values = scope.environment[String(name.dropFirst(4))], !values.isEmpty else { return nil }
            let literal = rest[..<open.lowerBound]
            var seen = Set<String>()
            let unique = values.filter { seen.insert($0).inserted }
            paths = paths.flatMap { path in unique.map { path + literal + $0 } }
            guard paths.count <= 256 else { return nil }
            rest = rest[rest.index(after: close)...]
        }
        return paths.map { $0 + rest }
    }
}
