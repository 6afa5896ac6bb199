import DetourDiagnostics
import DetourSite
import DetourTestSupport
import Foundation
import XCTest

/// `detour build` twice with nothing changed writes nothing the second time, and anything a
/// build reads, or how it is asked to build, makes it build again.
final class BuildCacheTests: SiteTestCase {
    /// A code without advice: a warning that every build reports, the up-to-date one too.
    private let warned = ["content/codes/500.yml": "status: 500\ntitle: Internal Server Error\nsummary: The server failed.\n"]

    func testNothingChangedWritesNothingAndReportsTheSameFindings() throws {
        let folder = try agedSite(warned)
        let first = cachedBuild(folder)
        XCTAssertTrue(first.wroteOutput)
        XCTAssertTrue(first.diagnostics.contains { $0.rule == "code.missing-advice" }, "\(first.diagnostics)")
        let before = try identities(folder)

        let second = cachedBuild(folder)
        XCTAssertTrue(second.upToDate)
        XCTAssertFalse(second.wroteOutput)
        XCTAssertEqual(second.diagnostics, first.diagnostics)
        XCTAssertEqual([second.errorPages, second.articles, second.files], [first.errorPages, first.articles, first.files])
        XCTAssertEqual(try identities(folder), before, "the output folder and its pages are the same files")
        XCTAssertTrue(folder.exists(".detour-cache/public/build"))
    }

    /// Every kind of change to what a build reads or how: each gives a full build whose
    /// output equals a clean build's.
    func testEachInputAndOptionBuildsAgain() throws {
        let folder = try agedSite()
        XCTAssertTrue(cachedBuild(folder).wroteOutput)
        let changes: [(String, (inout BuildOptions) throws -> Void)] = [
            (
                "an article's body, same size",
                { _ in try self.edit(folder, "content/articles/refused.md") { $0.replacingOccurrences(of: "Check the port", with: "Check the pert") } }
            ),
            ("site.yml", { _ in try self.edit(folder, "content/site.yml") { $0 + "\n" } }),
            ("a new article", { _ in try self.add(folder, "content/articles/new.md", "---\ntitle: New\nsummary: New one.\n---\n\nText.\n") }),
            ("a removed article", { _ in try FileManager.default.removeItem(at: folder.url.appendingPathComponent("content/articles/new.md")) }),
            ("a templates folder", { _ in try self.add(folder, "templates/assets/extra.txt", "laid over\n") }),
            ("a partial laid over the theme's", { _ in try self.add(folder, "templates/partials/footer.mustache", "<footer>Ours</footer>\n") }),
            ("--drafts", { $0.includeDrafts = true }),
            ("--base-url", { $0.baseURL = "https://staging.example.com/help/" }),
            ("another detour", { $0.toolIdentity = "0.0.0-other" }),
        ]
        var options = Self.options(folder)
        for (change, apply) in changes {
            try apply(&options)
            let report = SiteBuilder.build(options)
            XCTAssertTrue(report.wroteOutput, "after \(change): \(report.diagnostics)")
            XCTAssertFalse(report.upToDate, change)
            assertEqualsCleanBuild(folder, options, change)
            XCTAssertTrue(SiteBuilder.build(options).upToDate, "nothing changed after \(change)")
        }
    }

    func testNoCacheBuildsInFullAndRecordsIt() throws {
        let folder = try agedSite()
        XCTAssertTrue(cachedBuild(folder).wroteOutput)
        var options = Self.options(folder)
        options.cache = .refresh
        XCTAssertTrue(SiteBuilder.build(options).wroteOutput)
        XCTAssertTrue(cachedBuild(folder).upToDate)
    }

    /// The record describes the folder its build put in place, not whatever is there now.
    func testAnOutputReplacedOrRemovedIsBuiltAgain() throws {
        let folder = try agedSite()
        XCTAssertTrue(cachedBuild(folder).wroteOutput)
        let output = folder.url.appendingPathComponent("public")
        let copy = folder.url.appendingPathComponent("copy")
        try FileManager.default.copyItem(at: output, to: copy)
        try FileManager.default.removeItem(at: output)
        try FileManager.default.moveItem(at: copy, to: output)
        XCTAssertTrue(cachedBuild(folder).wroteOutput, "a copy put in place of the output")
        try FileManager.default.removeItem(at: output)
        XCTAssertTrue(cachedBuild(folder).wroteOutput, "no output at all")
        XCTAssertTrue(folder.exists("public/index.html"))
    }

    /// A failed build leaves the output and its record as they were: undoing the change that
    /// failed it leaves nothing to do.
    func testAFailedBuildKeepsTheRecordOfTheOutputItLeft() throws {
        let folder = try agedSite()
        XCTAssertTrue(cachedBuild(folder).wroteOutput)
        let path = "content/codes/502.yml"
        let good = try folder.read(path)
        let modified = try FileManager.default.attributesOfItem(atPath: folder.url.appendingPathComponent(path).path)[.modificationDate]
        try add(folder, path, "status: 502\ntitel: oops\n")
        XCTAssertTrue(cachedBuild(folder).diagnostics.hasErrors)
        try folder.write([path: good])
        try FileManager.default.setAttributes([.modificationDate: modified as Any], ofItemAtPath: folder.url.appendingPathComponent(path).path)
        XCTAssertTrue(cachedBuild(folder).upToDate)
    }

    /// The articles' texts are copied, and the index's memo written, for the cache while the
    /// pages render; a build that fails after that (here, a template that renders blank pages)
    /// leaves the last build's memos and texts as they were, and nothing of its own copies.
    func testABuildFailingWhileItRendersKeepsTheLastBuildsTexts() throws {
        let folder = try agedSite()
        XCTAssertTrue(cachedBuild(folder).wroteOutput)
        XCTAssertEqual(try staged(folder), [], "a build that succeeded put everything it staged in place")
        let cached = [".detour-cache/public/rebuild", ".detour-cache/public/sources", ".detour-cache/public/search-en"]
        let before = try cached.map { try folder.read($0) }
        try edit(folder, "content/articles/refused.md") { $0 + "\nA sentence the failed build read.\n" }
        try add(folder, "templates/tag.mustache", "\n")
        let failed = cachedBuild(folder)
        XCTAssertTrue(failed.diagnostics.contains { $0.rule == "template.empty-page" }, "\(failed.diagnostics)")
        XCTAssertFalse(failed.wroteOutput)
        XCTAssertEqual(try cached.map { try folder.read($0) }, before)
        XCTAssertEqual(try staged(folder), [])
    }

    /// What a build staged in the cache folder and left there.
    private func staged(_ folder: TemporaryFolder) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent(".detour-cache/public").path).filter { $0.hasSuffix(".new") }
    }

    /// A file written in the same clock tick as the listing could be written again unseen, its
    /// size and time the same: the build after it compares its content. Left as it was, the
    /// build has nothing to write; written again so, it is rebuilt.
    func testAFileWrittenJustBeforeTheBuildIsCheckedByContent() throws {
        let folder = try agedSite()
        let article = "content/articles/refused.md"
        // A whole second ahead: within the racy window of each build below, set exactly twice.
        let tick = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 30).rounded(.down))
        let path = folder.url.appendingPathComponent(article).path
        try folder.write([article: try folder.read(article) + "\nJust now.\n"])
        try FileManager.default.setAttributes([.modificationDate: tick], ofItemAtPath: path)
        XCTAssertTrue(cachedBuild(folder).wroteOutput)
        XCTAssertTrue(cachedBuild(folder).upToDate, "the same content")

        try folder.write([article: try folder.read(article).replacingOccurrences(of: "Just now.", with: "Just then")])
        try FileManager.default.setAttributes([.modificationDate: tick], ofItemAtPath: path)
        XCTAssertFalse(cachedBuild(folder).upToDate, "written again with the same size and time")
        assertEqualsCleanBuild(folder, Self.options(folder), "a file written again unseen")
    }

    // MARK: - Helpers

    private static func options(_ folder: TemporaryFolder) -> BuildOptions {
        var options = BuildOptions(output: "public", base: folder.url)
        options.cache = .use
        options.toolIdentity = "test"
        return options
    }

    private func cachedBuild(_ folder: TemporaryFolder) -> BuildReport {
        SiteBuilder.build(Self.options(folder))
    }

    /// The sample site, its files last modified a minute ago: well out of the racy window.
    private func agedSite(_ overrides: [String: String] = [:]) throws -> TemporaryFolder {
        let folder = try site(overrides)
        try folder.age(by: 60)
        return folder
    }

    private var edits = 0

    /// Writes `relative` with a modification time of its own, out of the racy window.
    private func add(_ folder: TemporaryFolder, _ relative: String, _ text: String) throws {
        try folder.write([relative: text])
        edits += 1
        let time = Date().addingTimeInterval(-50 + Double(edits))
        try FileManager.default.setAttributes([.modificationDate: time], ofItemAtPath: folder.url.appendingPathComponent(relative).path)
    }

    private func edit(_ folder: TemporaryFolder, _ relative: String, _ change: (String) -> String) throws {
        try add(folder, relative, change(try folder.read(relative)))
    }

    /// The output folder's and every page's device and inode.
    private func identities(_ folder: TemporaryFolder) throws -> [String: [Int]] {
        var found: [String: [Int]] = [:]
        let root = folder.url.appendingPathComponent("public").path
        for relative in [""] + (FileManager.default.subpaths(atPath: root) ?? []) {
            let attributes = try FileManager.default.attributesOfItem(atPath: root + "/" + relative)
            found[relative] = [(attributes[.systemNumber] as? Int) ?? -1, (attributes[.systemFileNumber] as? Int) ?? -1]
        }
        return found
    }

    private func assertEqualsCleanBuild(_ folder: TemporaryFolder, _ options: BuildOptions, _ change: String, line: UInt = #line) {
        var clean = options
        clean.output = folder.url.appendingPathComponent("clean")
        clean.outputDisplay = "clean"
        clean.cache = .off
        XCTAssertTrue(SiteBuilder.build(clean).wroteOutput, change, line: line)
        XCTAssertEqual(folder.snapshot("public"), folder.snapshot("clean"), "output after \(change) equals a clean build's", line: line)
    }
}
