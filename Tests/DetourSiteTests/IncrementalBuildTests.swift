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

    /// A site whose index is many files: the search page carries the index's entry, whose shard
    /// count grows with the words, so when an edit adds many, refreshing the index rewrites that
    /// page too, as a full build has it (a stale count would send queries to the wrong files).
    func testAnEditThatGrowsTheIndexRefreshesTheEntryTheSearchPageCarries() throws {
        let folder = try SampleSite.shipped()
        defer { folder.remove() }
        let preview = IncrementalBuild(options: BuildOptions(output: "preview", base: folder.url))
        XCTAssertTrue(preview.build(changed: nil).succeeded)
        let carried = try folder.read("preview/search/index.html")
        XCTAssertTrue(carried.contains("data-index="), "the shipped knowledge base's index is more than one file")

        // Words no page has, of every start: more terms than the shards the index has now hold.
        var generator = SplitMix64(state: 7)
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        let words = (0..<8000).map { _ in String((0..<8).map { _ in letters[Int(generator.next() % 26)] }) }
        let article = "content/articles/upstream/upstream-timed-out.md"
        try folder.write([article: try folder.read(article) + "\n" + words.joined(separator: " ") + "\n"])
        XCTAssertFalse(preview.build(changed: [folder.path + "/" + article]).full)
        preview.refreshSearchIndex()
        XCTAssertNotEqual(try folder.read("preview/search/index.html"), carried, "the entry names more term shards")

        XCTAssertTrue(build(folder, output: "full").wroteOutput)
        XCTAssertEqual(try folder.read("preview/search/index.html"), try folder.read("full/search/index.html"))
        XCTAssertEqual(folder.snapshot("preview/search"), folder.snapshot("full/search"))
    }
}
