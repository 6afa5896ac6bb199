import Foundation

/// Where a `detour verify` test runs: a project folder with detour's pages for 500, 502, 503 and
/// 504 under `public/errors`, and a scratch folder the sandboxes go to (`TMPDIR`), so a test sees
/// what a run leaves behind.
public struct VerifyWorkspace {
    public let folder: TemporaryFolder
    public let scratch: TemporaryFolder

    /// Fails (a skip outside CI) when `server` is not installed.
    public init(server: String) throws {
        _ = try RequiredTool.find(server)
        folder = try TemporaryFolder()
        scratch = try TemporaryFolder()
        try folder.write(Dictionary(uniqueKeysWithValues: [500, 502, 503, 504].map { ("public/errors/\($0).html", "<p>detour's page for \($0)</p>\n") }))
    }

    /// The test's environment with the sandboxes in the scratch folder.
    public var environment: [String: String] {
        ProcessInfo.processInfo.environment.merging(["TMPDIR": scratch.path]) { _, new in new }
    }

    /// Runs `detour` with `arguments` in the project folder, the sandboxes in the scratch one.
    public func detour(_ arguments: [String]) throws -> ProcessResult {
        try ProcessRunner.run(Repository.detourExecutable, arguments, in: folder.url, environment: environment)
    }

    /// The JSON report of a `--format json` run.
    public static func report(_ result: ProcessResult) throws -> [String: Any] {
        guard let report = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] else {
            throw ReportError(output: result.stdout + result.stderr)
        }
        return report
    }

    /// Each finding as `rule:line`.
    public static func findings(_ result: ProcessResult) throws -> [String] {
        let diagnostics = try report(result)["diagnostics"] as? [[String: Any]] ?? []
        return diagnostics.map { "\($0["rule"] as? String ?? ""):\((($0["location"] as? [String: Any])?["line"] as? Int) ?? 0)" }
    }

    /// Where `detour check` reads the configuration otherwise than the real server ran it
    /// (`--compare-check`), each as its JSON object's text.
    public static func disagreements(_ result: ProcessResult) throws -> [String] {
        (try report(result)["check_disagreements"] as? [[String: Any]] ?? []).map { "\($0)" }
    }

    /// What `method` on `path` (of `host`, if given) got with the upstream `mode`: its status
    /// and whose body.
    public static func answer(
        _ result: ProcessResult, _ path: String, _ mode: String, method: String = "GET", host: String? = nil, scheme: String? = nil
    ) throws -> (
        status: Int, body: String
    )? {
        let observations = try report(result)["observations"] as? [[String: Any]] ?? []
        return observations.first { observation in
            observation["path"] as? String == path && observation["upstream"] as? String == mode && observation["method"] as? String == method
                && (host == nil || observation["host"] as? String == host) && (scheme == nil || observation["scheme"] as? String == scheme)
        }.map { ($0["status"] as? Int ?? -1, $0["body"] as? String ?? "") }
    }

    /// The texts of a report's `rewrites` or `not_probed`.
    public static func texts(_ result: ProcessResult, _ key: String) throws -> [String] {
        (try report(result)[key] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
    }

    struct ReportError: Error, CustomStringConvertible {
        var output: String
        var description: String { "not a JSON report: \(output)" }
    }

    public func remove() {
        folder.remove()
        scratch.remove()
    }
}
