import DetourTestSupport
import Foundation
import XCTest

/// Runs the built `detour` binary the way a user does and checks exit codes and output.
final class BuildCommandTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try SampleSite.make()
    }

    override func tearDown() {
        folder.remove()
    }

    func testHelpDescribesTheCommands() throws {
        let result = try ProcessRunner.detour(["--help"], in: folder.url)
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.stdout.contains("build"), result.stdout)
        let build = try ProcessRunner.detour(["build", "--help"], in: folder.url)
        for option in ["--content", "--templates", "--output", "--format", "--strict", "--quiet"] {
            XCTAssertTrue(build.stdout.contains(option), "build --help lacks \(option)")
        }
    }

    func testTheBinaryBuildsTheShippedContentAnywhereWithItsBuiltInTheme() throws {
        // Only content/, in a folder outside the repository: no templates/ beside it.
        let project = try TemporaryFolder()
        defer { project.remove() }
        try FileManager.default.copyItem(at: Repository.content, to: project.url.appendingPathComponent("content"))
        let result = try ProcessRunner.detour(["build", "--quiet"], in: project.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        for page in ["index.html", "errors/502.html", "search.js", "snippets/nginx.conf", "articles/upstream-timed-out/index.html"] {
            XCTAssertTrue(project.exists("public/" + page), page)
        }
        let snippet = try ProcessRunner.detour(["snippet", "nginx"], in: project.url)
        XCTAssertEqual(snippet.status, 0, snippet.stderr)
        XCTAssertTrue(snippet.stdout.contains("error_page"), snippet.stdout)
    }

    func testProgressShowsOnATerminalOnly() throws {
        // script(1) gives the build a pseudo-terminal, as a person at a shell has.
        let script = try RequiredTool.find("script")
        func onTerminal(_ arguments: String) throws -> String {
            try ProcessRunner.run(script, ["-qec", "\(Repository.detourExecutable.path) build \(arguments)", "/dev/null"], in: folder.url).stdout
        }
        let shown = try onTerminal("")
        XCTAssertTrue(shown.contains("building: pages"), shown)
        XCTAssertTrue(shown.contains("\r\u{1B}[K"), "one line, rewritten in place")
        XCTAssertFalse(try onTerminal("--quiet").contains("building:"))
        let piped = try ProcessRunner.detour(["build"], in: folder.url)
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertFalse(piped.stderr.contains("building:"), "nothing but findings when standard error is not a terminal")
    }

    /// The version is the repository's VERSION, the one place it is written.
    func testVersion() throws {
        let result = try ProcessRunner.detour(["--version"], in: folder.url)
        XCTAssertEqual(result.status, 0)
        let versionFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../VERSION").standardizedFileURL
        let version = try String(contentsOf: versionFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(version.range(of: #"^\d+\.\d+\.\d+$"#, options: .regularExpression) != nil, version)
        XCTAssertEqual(result.stdout, version + "\n")
    }

    func testUsageErrorsExit64() throws {
        XCTAssertEqual(try ProcessRunner.detour(["build", "--no-such-flag"], in: folder.url).status, 64)
        let badFormat = try ProcessRunner.detour(["build", "--format", "xml"], in: folder.url)
        XCTAssertEqual(badFormat.status, 64)
        XCTAssertTrue(badFormat.stderr.contains("xml"), badFormat.stderr)
        XCTAssertEqual(try ProcessRunner.detour(["frobnicate"], in: folder.url).status, 64)
    }

    /// The second of two builds with nothing changed between them says so and writes nothing;
    /// `--no-cache` builds in full all the same.
    func testABuildWithNothingChangedSaysTheOutputIsUpToDate() throws {
        // Out of the window in which a file just written is not trusted to be unchanged.
        Thread.sleep(forTimeInterval: 0.3)
        let first = try ProcessRunner.detour(["build"], in: folder.url)
        XCTAssertEqual(first.status, 0, first.stderr)
        let index = try FileManager.default.attributesOfItem(atPath: folder.path + "/public/index.html")[.systemFileNumber] as? Int
        let again = try ProcessRunner.detour(["build"], in: folder.url)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(
            again.stdout.hasPrefix("public/ is up to date: 1 error page and 1 article (")
                && again.stdout.contains("nothing it shows changed since its last build"),
            again.stdout)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: folder.path + "/public/index.html")[.systemFileNumber] as? Int, index)
        let full = try ProcessRunner.detour(["build", "--no-cache"], in: folder.url)
        XCTAssertEqual(full.status, 0, full.stderr)
        XCTAssertTrue(full.stdout.hasPrefix("Built 1 error page and 1 article ("), full.stdout)

        XCTAssertTrue(try ProcessRunner.detour(["build", "--help"], in: folder.url).stdout.contains("--no-cache"))
    }

    /// After a sentence is added to an article of the shipped knowledge base, the build
    /// rewrites its pages and index files alone and says which.
    func testAnArticlesEditedTextRewritesItsPagesAlone() throws {
        let project = try TemporaryFolder()
        defer { project.remove() }
        try FileManager.default.copyItem(at: Repository.content, to: project.url.appendingPathComponent("content"))
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertEqual(try ProcessRunner.detour(["build", "--quiet"], in: project.url).status, 0)
        let article = project.url.appendingPathComponent("content/articles/upstream/upstream-connect-timeout.md")
        let text = try String(contentsOf: article, encoding: .utf8)
        try text.replacingOccurrences(of: "\n## ", with: "\nOne zygomorphic sentence more.\n\n## ").write(to: article, atomically: true, encoding: .utf8)
        Thread.sleep(forTimeInterval: 0.3)
        let edited = try ProcessRunner.detour(["build"], in: project.url)
        XCTAssertEqual(edited.status, 0, edited.stderr)
        XCTAssertTrue(edited.stdout.hasPrefix("Rebuilt ") && edited.stdout.contains("articles/upstream-connect-timeout/index.html"), edited.stdout)
        let page = try String(contentsOf: project.url.appendingPathComponent("public/articles/upstream-connect-timeout/index.html"), encoding: .utf8)
        XCTAssertTrue(page.contains("One zygomorphic sentence more."))
        // Search finds the new word: its term is in one of the term files.
        let index = project.url.appendingPathComponent("public/search/en")
        let termFiles = try FileManager.default.contentsOfDirectory(atPath: index.path).filter { $0.hasPrefix("t") }
        XCTAssertTrue(
            try termFiles.contains { try String(contentsOf: index.appendingPathComponent($0), encoding: .utf8).contains("\"zygomorph") }, "\(termFiles)")
    }

    func testCleanBuildExitsZeroAndSaysWhatItWrote() throws {
        let result = try ProcessRunner.detour(["build"], in: folder.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        XCTAssertTrue(result.stdout.hasPrefix("Built 1 error page and 1 article ("), result.stdout)
        XCTAssertTrue(result.stdout.contains("into public/ in "), result.stdout)
        XCTAssertTrue(folder.exists("public/errors/502.html"))
        let quiet = try ProcessRunner.detour(["build", "--quiet"], in: folder.url)
        XCTAssertEqual(quiet.status, 0)
        XCTAssertEqual(quiet.stdout, "")
    }

    /// `--timings`: one line per phase on standard error, in the order they ran, with its share
    /// and the peak memory so far, then the search index, built beside them; stdout untouched.
    func testTimingsNameEveryPhase() throws {
        let result = try ProcessRunner.detour(["build", "--quiet", "--timings"], in: folder.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "")
        let phases = result.stderr.split(separator: "\n").map { $0.components(separatedBy: "  ").first ?? "" }
        XCTAssertEqual(
            phases, ["inputs listed", "templates", "content", "pages", "waiting for the index", "assets", "output replaced", "cache written", "search index"],
            result.stderr)
        let lines = result.stderr.split(separator: "\n")
        XCTAssertTrue(lines.dropLast().allSatisfy { $0.contains("% ") && $0.contains(" s ") && $0.hasSuffix(" MiB") }, result.stderr)
        // The peak only grows, and a build holds more than the empty process.
        let peaks = lines.dropLast().compactMap { Int($0.split(separator: " ").dropLast().last ?? "") }
        XCTAssertEqual(peaks.count, lines.count - 1, result.stderr)
        XCTAssertEqual(peaks, peaks.sorted(), result.stderr)
        XCTAssertGreaterThan(peaks.last ?? 0, 0, result.stderr)
        XCTAssertTrue(lines.last?.hasSuffix(" s (beside the phases above)") == true, result.stderr)
    }

    func testCustomFoldersAreUsed() throws {
        try FileManager.default.moveItem(at: folder.url.appendingPathComponent("content"), to: folder.url.appendingPathComponent("kb"))
        let result = try ProcessRunner.detour(["build", "--content", "kb", "--output", "site/out"], in: folder.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(folder.exists("site/out/articles/refused/index.html"))
    }

    func testBadContentExitsOneWithEveryProblemAndKeepsOutput() throws {
        XCTAssertEqual(try ProcessRunner.detour(["build", "-q"], in: folder.url).status, 0)
        let before = folder.snapshot("public")
        try folder.write([
            "content/codes/502.yml": "status: 502\ntitle: Bad Gateway\nsummary: x\nadvice: y\nretry_after: soon\n",
            "content/articles/refused.md": "---\ntitel: R\nsummary: s\n---\n",
        ])
        let result = try ProcessRunner.detour(["build"], in: folder.url)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, "")
        XCTAssertTrue(
            result.stderr.contains("content/codes/502.yml:5:14: error: [content.type-mismatch] 'retry_after' must be a whole number\n"), result.stderr)
        XCTAssertTrue(
            result.stderr.contains(
                "content/articles/refused.md:2:1: error: [content.unknown-field] unknown field 'titel' in article front matter; did you mean 'title'?\n"),
            result.stderr)
        XCTAssertTrue(result.stderr.contains("3 errors, 0 warnings\npublic/ was left as it was.\n"), result.stderr)
        XCTAssertFalse(result.stderr.contains("Fatal error"), "no crash or stack trace")
        XCTAssertEqual(folder.snapshot("public"), before)
    }

    func testJSONAndSARIFGoToStandardOutput() throws {
        try folder.write(["content/codes/502.yml": "status: 502\ntitle: Bad Gateway\nsummary: x\nretry_after: soon\n"])
        let json = try ProcessRunner.detour(["build", "--format", "json"], in: folder.url)
        XCTAssertEqual(json.status, 1)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["errors"] as? Int, 1)
        XCTAssertEqual(object["warnings"] as? Int, 1)
        let sarif = try ProcessRunner.detour(["build", "--format", "sarif"], in: folder.url)
        XCTAssertEqual(sarif.status, 1)
        XCTAssertTrue(sarif.stdout.contains("\"ruleId\" : \"content.type-mismatch\""), sarif.stdout)
    }

    func testStrictFailsOnWarnings() throws {
        try folder.write(["content/codes/502.yml": "status: 502\ntitle: Bad Gateway\nsummary: x\n"])
        let relaxed = try ProcessRunner.detour(["build"], in: folder.url)
        XCTAssertEqual(relaxed.status, 0)
        XCTAssertTrue(relaxed.stderr.contains("warning: [code.missing-advice]"), relaxed.stderr)
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("public"))
        let strict = try ProcessRunner.detour(["build", "--strict"], in: folder.url)
        XCTAssertEqual(strict.status, 1)
        XCTAssertFalse(folder.exists("public"))
    }
}
