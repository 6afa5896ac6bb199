import Foundation

/// One case of a rule as the tests hold it: the configuration (`nginx.conf`, with any file it
/// includes) and what `detour check` says of it. A hit raises the rule; a near miss, written
/// the way that works, stays silent.
public struct RuleExample: Sendable {
    public struct File: Sendable {
        /// The scenario folder and the file's name in it: `error-page-proxied-hit/nginx.conf`.
        public var name: String
        public var text: String
    }

    public var files: [File]
    /// The findings as text (`expected.txt`), their paths as the files are named here.
    public var output: String

    /// `nginx.error-page-proxied` → the scenarios `error-page-proxied-hit` and `-near-miss` of
    /// the nginx fixtures; nil for a rule the tests show no such case of (a syntax error's).
    public static func hit(of rule: String) -> RuleExample? { scenario(rule, "hit") }
    public static func nearMiss(of rule: String) -> RuleExample? { scenario(rule, "near-miss") }

    private static func scenario(_ rule: String, _ kind: String) -> RuleExample? {
        guard let dot = rule.firstIndex(of: ".") else { return nil }
        return scenarios["\(rule[..<dot])/\(rule[rule.index(after: dot)...])-\(kind)"]
    }

    /// `<server>/<scenario>` → its files, read once from what the build embedded.
    private static let scenarios: [String: RuleExample] = {
        var found: [String: RuleExample] = [:]
        for file in RuleExampleFiles.files {
            // `DetourNginxTests/Fixtures/nginx/<scenario>/<name>`
            let parts = file.path.split(separator: "/")
            guard parts.count == 5, let data = Data(base64Encoded: file.base64) else { continue }
            let key = "\(parts[2])/\(parts[3])"
            let text = String(decoding: data, as: UTF8.self)
            var example = found[key] ?? RuleExample(files: [], output: "")
            if parts[4] == "expected.txt" {
                example.output = text
            } else {
                example.files.append(File(name: "\(parts[3])/\(parts[4])", text: text))
            }
            found[key] = example
        }
        return found
    }()
}
