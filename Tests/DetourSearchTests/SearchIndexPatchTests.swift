import DetourTestSupport
import XCTest

@testable import DetourSearch

/// A patched index is the index the builder writes for the site as it now is, byte for byte:
/// checked against the builder itself on many generated edits, one after another, each patch
/// starting from the last one's files and memo.
final class SearchIndexPatchTests: XCTestCase {
    /// Words common enough that their terms pass `postingsPerTerm`, words whose terms differ
    /// (`connections` → `connect`), and rare made-up ones that come and go with an edit.
    private static let common = [
        "upstream", "connection", "connections", "connecting", "timed", "timeout", "proxy", "server", "servers", "request", "requests",
        "backend", "refused", "reset", "gateway", "listening", "port", "socket", "handshake", "closed", "worker", "workers",
    ]

    private struct Site {
        var pages: [SearchPage]
        var random: SplitMix64
        /// Host names among the words (`shop-…`, of `hosts` in all): more than one term file
        /// holds under one start, which the build cuts by longer ones (`SearchIndexSplit`).
        var hosts: Int

        /// `logEvery`: one page in so many has log lines.
        init(seed: UInt64, count: Int, logEvery: Int = 9, hosts: Int = 0) {
            random = SplitMix64(state: seed)
            self.hosts = hosts
            pages = []
            for number in 0..<count {
                let sections = Int(random.next() % 4)
                var page = SearchPage(
                    url: "articles/page-\(number)/", title: "Page \(number) \(Self.pick(common, &random))", codes: number % 7 == 0 ? [502] : [],
                    tags: number % 5 == 0 ? ["nginx"] : [],
                    logPatterns: number % logEvery == 0 ? ["upstream timed out while connecting to upstream \(number)", "worker reload failed"] : [],
                    text: Self.sentence(&random, hosts: hosts),
                    sections: (0..<sections).map { SearchPage.Section(anchor: "s\($0)", title: "Section \($0)", text: Self.sentence(&random, hosts: hosts)) })
                page.aliases = []
                pages.append(page)
            }
        }

        static func pick(_ words: [String], _ random: inout SplitMix64) -> String { words[Int(random.next() % UInt64(words.count))] }

        /// Common words with made-up ones that have forms of their own; an edit's may bring a
        /// form of a log line's word (`reloading` of `reload`), which the log file lists.
        static func sentence(_ random: inout SplitMix64, logForms: Bool = false, hosts: Int = 0) -> String {
            var words = (0..<(8 + Int(random.next() % 30))).map { _ in random.next() % 6 == 0 ? "zq\(random.next() % 400)ings" : pick(common, &random) }
            if hosts > 0 { words += (0..<(Int(random.next() % 12))).map { _ in "shop-\(random.next() % UInt64(hosts))" } }
            if logForms, random.next() % 2 == 0 { words.append(["reloading", "reloaded", "reloads", "reloader"][Int(random.next() % 4)]) }
            return words.joined(separator: " ")
        }

        /// One page's text or a section's text written anew; its headings and the rest stay.
        mutating func edit() -> (index: Int, old: SearchPage) {
            let index = Int(random.next() % UInt64(pages.count))
            let old = pages[index]
            var page = old
            let section = Int(random.next() % UInt64(page.sections.count + 1))
            if section == page.sections.count {
                page = SearchPage(
                    url: old.url, title: old.title, codes: old.codes, tags: old.tags, logPatterns: old.logPatterns,
                    text: Self.sentence(&random, logForms: true, hosts: hosts),
                    sections: old.sections)
            } else {
                var sections = old.sections
                sections[section].text = random.next() % 5 == 0 ? "" : Self.sentence(&random, logForms: true, hosts: hosts)
                page = SearchPage(
                    url: old.url, title: old.title, codes: old.codes, tags: old.tags, logPatterns: old.logPatterns, text: old.text, sections: sections)
            }
            pages[index] = page
            return (index, old)
        }

        func build(language: String) -> (files: [String: String], memo: SearchIndexMemo) {
            var files: [String: String] = [:]
            var memo: SearchIndexMemo?
            _ = SearchIndexBuilder.build(
                pages, language: language, languages: [language], until: { false }, emit: { for file in $0 { files[file.path] = file.contents } },
                memo: { memo = $0 })
            return (files, memo!)
        }
    }

    func testPatchesEqualTheBuildersIndexEditAfterEdit() throws {
        for (seed, language) in [(UInt64(20_261_126), "en"), (7, "de")] {
            let (patched, entries, _) = try editAfterEdit(seed: seed, language: language, pages: 320, rounds: 80)
            XCTAssertGreaterThan(patched, 65, "seed \(seed): most edits are patched, \(patched) of 80 were")
            // English forms: the German stemmer does not take `reloading` to `reload`.
            if language == "en" { XCTAssertGreaterThan(entries, 0, "some edits bring or take a log word's form, which changes the entry's filter") }
        }
    }

    /// A site of cards' size (`SearchIndexLayout.cardShards`): the edited page's cards, and a
    /// term's whose best pages change, as the builder writes them.
    func testCardsArePatchedAsTheBuilderWritesThem() throws {
        // A log line on more pages than its line keeps: an edit may move a page into or out of it.
        let (patched, _, cardsPatched) = try editAfterEdit(seed: 20_261_205, language: "en", pages: 1100, logEvery: 4, rounds: 16, cards: true)
        XCTAssertGreaterThan(patched, 12, "most edits are patched, \(patched) of 16 were")
        XCTAssertGreaterThan(cardsPatched, 8, "edits rewrite the cards that show the edited page, \(cardsPatched) of 16 did")
    }

    /// A site whose host names are cut by longer starts: a page's names come and go with its
    /// edits, counted under each start cut.
    func testTermsUnderStartsCutLongerArePatchedAsTheBuilderWritesThem() throws {
        let (patched, _, _) = try editAfterEdit(seed: 20_261_206, language: "en", pages: 320, rounds: 40, hosts: 4000)
        XCTAssertGreaterThan(patched, 32, "most edits are patched, \(patched) of 40 were")
    }

    /// Edits one after another, each patched and compared with the builder's index; the
    /// counts of edits patched, of those that changed the entry and of those that changed cards.
    private func editAfterEdit(
        seed: UInt64, language: String, pages: Int, logEvery: Int = 9, rounds: Int, cards: Bool = false, hosts: Int = 0
    ) throws -> (Int, Int, Int) {
        var site = Site(seed: seed, count: pages, logEvery: logEvery, hosts: hosts)
        var (files, memo) = site.build(language: language)
        XCTAssertGreaterThan(memo.termShards, 1, "several term files")
        XCTAssertFalse(memo.frequentTerms.isEmpty, "terms with more postings than a line keeps")
        XCTAssertNotNil(files["l.js"])
        XCTAssertEqual(files.keys.contains { $0.hasPrefix("c") }, cards, "card files")
        XCTAssertEqual(memo.split.keys.contains("sh"), hosts > 0, "a start cut by longer ones: \(memo.split)")
        if cards { XCTAssertTrue(files.contains { $0.key.hasPrefix("c") && $0.value.contains("\"!upstream\":[") }, "the log file's cards") }
        var patched = 0
        var entries = 0
        var cardsPatched = 0
        // The memo's file: written whole, then amended after each patch.
        var written = try XCTUnwrap(memo.encoded)
        for round in 0..<rounds {
            let (index, old) = site.edit()
            let built = site.build(language: language)
            let before = memo
            guard let result = SearchIndexPatch.patch(old: old, new: site.pages[index], language: language, memo: &memo, read: { [files] in files[$0] })
            else {
                (files, memo) = built
                written = try XCTUnwrap(memo.encoded)
                continue
            }
            written += try XCTUnwrap(memo.amendment(from: before))
            let read = try XCTUnwrap(SearchIndexMemo(encoded: written), "seed \(seed) round \(round)")
            XCTAssertEqual([read.pages, read.records, read.termShards], [memo.pages, memo.records, memo.termShards])
            XCTAssertTrue(
                read.buckets == memo.buckets && read.frequentTerms == memo.frequentTerms && read.frequentLogTerms == memo.frequentLogTerms
                    && read.formPages == memo.formPages && read.split == memo.split, "seed \(seed) round \(round): the amended memo reads as the patched one")
            let changed = result.files
            patched += 1
            if result.entry != nil { entries += 1 }
            if changed.contains(where: { $0.path.hasPrefix("c") }) { cardsPatched += 1 }
            for file in changed { files[file.path] = file.contents }
            XCTAssertEqual(Set(files.keys), Set(built.files.keys), "seed \(seed) round \(round)")
            for (path, text) in built.files where files[path] != text {
                XCTFail("seed \(seed) round \(round): \(path) differs from the builder's after editing \(old.url)")
            }
            XCTAssertEqual(memo.formPages, built.memo.formPages, "seed \(seed) round \(round)")
            XCTAssertEqual(memo.buckets, built.memo.buckets, "seed \(seed) round \(round)")
            XCTAssertEqual(memo.split, built.memo.split, "seed \(seed) round \(round)")
            XCTAssertEqual(memo.termShards, built.memo.termShards)
            // What the memo keeps of a frequent term is the best of it, if not all.
            XCTAssertEqual(Set(memo.frequentTerms.keys), Set(built.memo.frequentTerms.keys), "seed \(seed) round \(round)")
            for (term, kept) in memo.frequentTerms {
                XCTAssertEqual(kept, Array(built.memo.frequentTerms[term]!.prefix(kept.count)), "seed \(seed) round \(round): \(term)")
            }
        }
        return (patched, entries, cardsPatched)
    }

    /// A log file whose lines were cut shorter to fit its budget is cut anew by the builder:
    /// a patch would write them as long as a term shard's.
    func testALogFileCutToItsBudgetIsLeftToTheBuilder() throws {
        var site = Site(seed: 11, count: 400)
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        let words: [String] = (0..<30).map { (number: Int) -> String in "lw" + String(letters[number / 26]) + String(letters[number % 26]) }
        let line = words.joined(separator: " ")
        for index in site.pages.indices { site.pages[index].logPatterns = [line] }
        let (files, built) = site.build(language: "en")
        var memo = built
        XCTAssertEqual(memo.logTermsFrom, 1, "every log term stays")
        XCTAssertLessThan(memo.logPostingsPerTerm, SearchIndexBuilder.postingsPerTerm, "30 terms of 400 log lines each are over the budget")
        let read = try XCTUnwrap(SearchIndexMemo(encoded: try XCTUnwrap(memo.encoded)))
        XCTAssertEqual(read.logPostingsPerTerm, memo.logPostingsPerTerm, "the memo's file keeps it")
        let old = site.pages[4]
        let new = SearchPage(
            url: old.url, title: old.title, codes: old.codes, tags: old.tags, logPatterns: old.logPatterns,
            text: old.text + " " + words[0], sections: old.sections)
        XCTAssertNil(SearchIndexPatch.patch(old: old, new: new, language: "en", memo: &memo, read: { files[$0] }), "a log term's impact changed")
    }

    /// A start the build cut that an edit takes under budget, or one an edit takes over it, is
    /// cut differently by the builder: the patch leaves both to it.
    func testAStartCrossingItsBudgetIsLeftToTheBuilder() throws {
        // Pages of many sections: the records call for as many term files either way.
        var site = Site(seed: 5, count: 520)
        func adding(_ words: [String], to page: SearchPage) -> SearchPage {
            SearchPage(
                url: page.url, title: page.title, codes: page.codes, tags: page.tags, logPatterns: page.logPatterns,
                text: ([page.text] + words).joined(separator: " "),
                sections: page.sections + (page.sections.count..<63).map { SearchPage.Section(anchor: "p\($0)", title: "Part \($0)", text: "") })
        }
        for index in 1..<site.pages.count { site.pages[index] = adding((0..<2).map { "shop-\(index * 2 + $0)" }, to: site.pages[index]) }
        let plain = adding([], to: site.pages[0])
        let hosts = adding((0..<700).map { "shop-x\($0)" }, to: site.pages[0])
        for (before, after) in [(hosts, plain), (plain, hosts)] {
            site.pages[0] = before
            let (files, built) = site.build(language: "en")
            site.pages[0] = after
            let rebuilt = site.build(language: "en").memo
            XCTAssertNotEqual(
                built.split["sh"] == nil, rebuilt.split["sh"] == nil, "700 host names take `sh` across its budget: \(built.split), \(rebuilt.split)")
            XCTAssertEqual(built.termShards, rebuilt.termShards, "as many term files either way")
            var memo = built
            let patched = SearchIndexPatch.patch(old: before, new: after, language: "en", memo: &memo, read: { files[$0] })
            XCTAssertTrue(patched == nil, "the builder cuts `sh` differently: the patch leaves it to the builder")
        }
    }

    /// A page whose title, tags or headings changed is more than a patch: the index is built anew.
    func testAPageListedDifferentlyIsNotPatched() {
        var site = Site(seed: 3, count: 100)
        var (files, memo) = site.build(language: "en")
        let old = site.pages[4]
        var retitled = old
        retitled.title += " again"
        XCTAssertNil(SearchIndexPatch.patch(old: old, new: retitled, language: "en", memo: &memo, read: { files[$0] }))
        site.pages[4].tags = ["caddy"]
        XCTAssertNil(SearchIndexPatch.patch(old: old, new: site.pages[4], language: "en", memo: &memo, read: { files[$0] }))
        files = [:]
        XCTAssertNil(SearchIndexPatch.patch(old: old, new: old, language: "en", memo: &memo, read: { files[$0] }), "no files to patch")
    }
}
