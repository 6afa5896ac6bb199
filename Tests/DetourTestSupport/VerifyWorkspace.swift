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

    public func remove() {
        folder.remove()
        scratch.remove()
    }
}
