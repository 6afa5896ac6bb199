import DetourSite
import DetourTestSupport
import Foundation
import XCTest

/// What `detour serve` rebuilds for each kind of save: only what the change touches, and the
/// same pages a full build would write.
final class IncrementalBuildTests: SiteTestCase {
    func testEachSaveRewritesWhatItTouches() throws {
        let folder = try site(["content/articles/other.md": "---\ntitle: Another\nsummary: Second.\ncodes: [502]\ntags: [nginx]\n---\n\nOther text.\n"])
        let options = BuildOptions(output: "preview", base: folder.url)
        let preview = IncrementalBuild(options: options)
        let first = preview.build(changed: nil)
        XCTAssertTrue(first.full)
        XCTAssertTrue(first.succeeded, "\(first.diagnostics)")
        let article = folder.path + "/content/articles/refused.md"
        let original = try folder.read("content/articles/refused.md")

        // A body: its page alone, then the search index.
        try folder.write(["content/articles/refused.md": original + "\nNew words: quokka.\n"])
        let body = preview.build(changed: [article])
        XCTAssertEqual(body.rewritten, ["articles/refused/index.html"])
        XCTAssertTrue(try folder.read("preview/articles/refused/index.html").contains("quokka"))
        XCTAssertTrue(preview.searchIndexIsStale)
        preview.refreshSearchIndex()
        XCTAssertFalse(preview.searchIndexIsStale)

        // A title: its page and the lists that show it, and they sort it anew.
        try folder.write(["content/articles/refused.md": original.replacingOccurrences(of: "title: Connection refused", with: "title: Zealous refusal")])
        let title = preview.build(changed: [article])
        XCTAssertFalse(title.full)
        XCTAssertEqual(
            Set(title.rewritten),
            ["articles/refused/index.html", "index.html", "search/index.html", "codes/502/index.html", "tags/nginx/index.html", "sitemap.xml"])
        let home = try folder.read("preview/index.html")
        XCTAssertLessThan(try XCTUnwrap(home.range(of: "Another")).lowerBound, try XCTUnwrap(home.range(of: "Zealous refusal")).lowerBound)

        // What it wrote is what a full build writes.
        XCTAssertEqual(build(folder, output: "full").diagnostics.filter { $0.severity == .error }, [])
        for page in title.rewritten {
            XCTAssertEqual(try folder.read("preview/" + page), try folder.read("full/" + page), page)
        }

        // Temporary files that came and went change nothing; a new tag or a new file is a full build.
        XCTAssertTrue(preview.build(changed: [folder.path + "/content/articles/sedX1b2c3"]).changedNothing)
        try folder.write(["content/articles/refused.md": original.replacingOccurrences(of: "tags: [nginx]", with: "tags: [nginx, brand-new]")])
        XCTAssertTrue(preview.build(changed: [article]).full)
        try folder.write(["content/articles/third.md": "---\ntitle: Third\nsummary: Third.\n---\n\nText.\n"])
        XCTAssertTrue(preview.build(changed: [folder.path + "/content/articles/third.md"]).full)

        // A broken front matter: findings, and the pages stay as they were.
        try folder.write(["content/articles/refused.md": "---\ntitle: [\n---\n"])
        let broken = preview.build(changed: [article])
        XCTAssertFalse(broken.succeeded)
        XCTAssertTrue(try folder.read("preview/articles/refused/index.html").contains("brand-new"))
    }
}
