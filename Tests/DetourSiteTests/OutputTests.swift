import DetourDiagnostics
import DetourSite
import DetourTestSupport
import Foundation
import XCTest

final class OutputTests: SiteTestCase {
    func testFailedBuildLeavesPreviousOutputByteForByte() throws {
        let folder = try site()
        XCTAssertTrue(build(folder).wroteOutput)
        try folder.write(["public/custom-note.txt": "kept by the operator\n"])
        let before = folder.snapshot("public")
        XCTAssertGreaterThan(before.count, 5)

        try folder.write(["content/codes/502.yml": "status: 502\ntitel: oops\n"])
        let report = build(folder)
        XCTAssertFalse(report.wroteOutput)
        XCTAssertTrue(report.diagnostics.hasErrors)
        XCTAssertEqual(folder.snapshot("public"), before)
        XCTAssertEqual(try stagingFolders(folder), [], "a failed build must clean up its staging folder")
    }

    func testFailureWhileRenderingLeavesPreviousOutput() throws {
        let folder = try site()
        XCTAssertTrue(build(folder).wroteOutput)
        let before = folder.snapshot("public")
        // Only found after every page was rendered into staging: an error page over budget.
        let longAdvice = String(repeating: "Wait and try again later please. ", count: 300)
        try folder.write(["content/codes/502.yml": "status: 502\ntitle: Bad Gateway\nsummary: x\nadvice: \"\(longAdvice)\"\n"])
        XCTAssertFalse(build(folder).wroteOutput)
        XCTAssertEqual(folder.snapshot("public"), before)
        XCTAssertEqual(try stagingFolders(folder), [])
    }

    /// A build reads each article's body again for its page; one edited since the content was
    /// checked stops the build rather than publish what was not checked.
    func testAnArticleEditedDuringTheBuildStopsIt() throws {
        let folder = try site()
        XCTAssertTrue(build(folder).wroteOutput)
        let before = folder.snapshot("public")
        let article = folder.url.appendingPathComponent("content/articles/refused.md")
        var options = BuildOptions(output: "public", base: folder.url)
        options.progress = { step in
            guard step == "pages", let text = try? String(contentsOf: article, encoding: .utf8) else { return }
            try? (text + "\nAdded while building.\n").write(to: article, atomically: true, encoding: .utf8)
        }
        let report = SiteBuilder.build(options)
        XCTAssertFalse(report.wroteOutput)
        let text = DiagnosticFormat.text.render(report.diagnostics, toolVersion: "test")
        XCTAssertTrue(
            text.contains(
                "content/articles/refused.md:1:1: error: [build.content-changed] 'content/articles/refused.md' changed while the site was being built; build again"
            ),
            text)
        XCTAssertEqual(folder.snapshot("public"), before)
        XCTAssertEqual(try stagingFolders(folder), [])
        // Built again, it is published.
        XCTAssertTrue(build(folder).wroteOutput)
        XCTAssertTrue(try folder.read("public/articles/refused/index.html").contains("Added while building."))
    }

    func testSuccessfulBuildReplacesStaleFilesAndKeepsThePlaceholder() throws {
        let folder = try site()
        try folder.write(["public/.gitkeep": "", "public/old-page.html": "stale"])
        XCTAssertTrue(build(folder).wroteOutput)
        XCTAssertFalse(folder.exists("public/old-page.html"))
        XCTAssertTrue(folder.exists("public/.gitkeep"))
        XCTAssertTrue(folder.exists("public/errors/502.html"))
        XCTAssertEqual(try stagingFolders(folder), [])
    }

    func testUnchangedPagesKeepTheirFileAndChangedOnesAreNew() throws {
        let folder = try site()
        XCTAssertTrue(build(folder).wroteOutput)
        let article = folder.url.appendingPathComponent("public/articles/refused/index.html").path
        let errorPage = folder.url.appendingPathComponent("public/errors/502.html").path
        let sitemap = folder.url.appendingPathComponent("public/sitemap.xml").path
        let articleInode = try inode(article)
        let errorPageInode = try inode(errorPage)
        let sitemapInode = try inode(sitemap)

        try folder.write([
            "content/codes/502.yml": try folder.read("content/codes/502.yml").replacingOccurrences(of: "Try again in a minute.", with: "Try again in an hour.")
        ])
        XCTAssertTrue(build(folder).wroteOutput)
        XCTAssertEqual(try inode(article), articleInode, "an identical page is linked, not rewritten")
        XCTAssertEqual(try inode(sitemap), sitemapInode, "a file written in pieces is compared and linked too")
        XCTAssertNotEqual(try inode(errorPage), errorPageInode)
        XCTAssertTrue(try folder.read("public/errors/502.html").contains("Try again in an hour."))
        let links = try FileManager.default.attributesOfItem(atPath: article)[.referenceCount] as? NSNumber
        XCTAssertEqual(links?.intValue, 1, "the previous output is gone, so only the new name remains")
    }

    func testSymbolicLinksInTheOldOutputAreNotCarriedOver() throws {
        let folder = try site()
        XCTAssertTrue(build(folder).wroteOutput)
        let page = folder.url.appendingPathComponent("public/errors/502.html")
        let outside = folder.url.appendingPathComponent("outside.html")
        try FileManager.default.moveItem(at: page, to: outside)
        try FileManager.default.createSymbolicLink(at: page, withDestinationURL: outside)
        XCTAssertTrue(build(folder).wroteOutput)
        let type = try FileManager.default.attributesOfItem(atPath: page.path)[.type] as? FileAttributeType
        XCTAssertEqual(type, .typeRegular)
    }

    private func inode(_ path: String) throws -> UInt64 {
        try XCTUnwrap((try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? NSNumber)?.uint64Value)
    }

    func testStagingLeftByAKilledBuildIsRemoved() throws {
        let folder = try site()
        // A pid that cannot be running: the kernel caps pids well below this.
        try folder.write([".public.detour-build-99999999/half.html": "<p>half"])
        XCTAssertTrue(build(folder).wroteOutput)
        XCTAssertEqual(try stagingFolders(folder), [])
    }

    func testOutputFilesAreWorldReadable() throws {
        let folder = try site()
        XCTAssertTrue(build(folder).wroteOutput)
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.url.appendingPathComponent("public/errors/502.html").path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o644)
        let folderAttributes = try FileManager.default.attributesOfItem(atPath: folder.url.appendingPathComponent("public/errors").path)
        XCTAssertEqual((folderAttributes[.posixPermissions] as? NSNumber)?.intValue, 0o755)
    }

    func testOutputMayNotReplaceTheSources() throws {
        let folder = try site()
        for (output, name) in [
            ("content", "the content folder 'content'"), (".", "the project folder"), ("..", "the project folder"),
            ("templates", "the templates folder 'templates'"),
        ] {
            let report = build(folder, output: output)
            XCTAssertEqual(report.diagnostics.map(\.rule), ["build.output-refused"], output)
            XCTAssertTrue(report.diagnostics.first?.message.contains("would replace \(name)") == true, report.diagnostics.first?.message ?? "")
        }
        XCTAssertTrue(folder.exists("content/site.yml"))
        XCTAssertTrue(folder.exists("templates/error.mustache"))
    }

    func testOutputThatIsAFileIsRefused() throws {
        let folder = try site(["public": "not a folder"])
        XCTAssertEqual(build(folder).diagnostics.map(\.message), ["output 'public' exists and is not a folder"])
        XCTAssertEqual(try folder.read("public"), "not a folder")
    }

    func testUnwritableOutputIsADiagnostic() throws {
        let folder = try site(["blocker": "a file where a folder should be"])
        let report = build(folder, output: "blocker/public")
        XCTAssertEqual(report.diagnostics.map(\.rule), ["build.write-failed"])
        XCTAssertEqual(report.diagnostics.first?.location.path, "blocker/public")
    }

    private func stagingFolders(_ folder: TemporaryFolder) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("detour-build") }
    }
}
