import DetourSupport
import DetourTestSupport
import XCTest

@testable import DetourSearch

/// Languages that share their scores and doc text write the index each would write alone, byte
/// for byte, with the same memo for later patches: checked on generated sites whose articles
/// are translated into some languages and not others, with a spill that keeps the shared work
/// for every language, and with none (the scores serve the language that made them alone).
final class SearchIndexSharingTests: XCTestCase {
    private static let words = [
        "upstream", "connection", "connections", "connecting", "timed", "timeout", "proxy", "server", "servers", "request", "requests",
        "backend", "refused", "reset", "gateway", "Verbindung", "abgelehnt", "délai", "dépassé", "接続", "タイムアウト", "php8.2-fpm",
        "proxy_read_timeout", "reloading", "reloads",
    ]
    private static let languages = ["en", "de", "fr", "ja"]

    /// By language, its pages: a code page in its own words, then every article, translated
    /// into the language for some (a source of its own) and as written for the rest.
    private static func site(seed: UInt64, articles: Int) -> [String: [SearchPage]] {
        var random = SplitMix64(state: seed)
        func sentence() -> String { (0..<(6 + Int(random.next() % 40))).map { _ in words[Int(random.next() % UInt64(words.count))] }.joined(separator: " ") }
        func article(_ number: Int, source: String, folder: String) -> SearchPage {
            let sections = (0..<Int(random.next() % 5)).map { SearchPage.Section(anchor: "s\($0)", title: sentence(), text: sentence()) }
            var page = SearchPage(
                url: folder + "articles/page-\(number)/", title: "Page \(number) " + sentence(), codes: number % 7 == 0 ? [502] : [],
                tags: number % 5 == 0 ? ["nginx"] : [], logPatterns: number % 9 == 0 ? [sentence()] : [], text: sentence(), sections: sections)
            page.source = source
            return page
        }
        var originals: [SearchPage] = []
        for number in 0..<articles { originals.append(article(number, source: "articles/page-\(number).md", folder: "")) }
        var pages: [String: [SearchPage]] = [:]
        for language in languages {
            let folder = language == "en" ? "" : language + "/"
            pages[language] = [SearchPage(url: folder + "codes/502/", title: "502 " + sentence(), codes: [502], definesStatus: 502, text: sentence())]
            for number in 0..<articles {
                if language != "en", random.next() % 6 == 0 {
                    pages[language]!.append(article(number, source: "articles/page-\(number).\(language).md", folder: folder))
                } else {
                    var page = originals[number]
                    page.url = folder + page.url
                    pages[language]!.append(page)
                }
            }
        }
        return pages
    }

    private struct Index: Equatable {
        var files: [String: String] = [:]
        var head: String??
        var formPages: [String: Int] = [:]
        var buckets: [Int] = []
        var frequentTerms: [String: [Int64]] = [:]
    }

    /// `docsKept`: after each language, how many sources' doc text the sharing holds.
    private static func build(_ site: [String: [SearchPage]], sharing: SearchIndexSharing?, docsKept: ((Int) -> Void)? = nil) -> [String: Index] {
        var indexes: [String: Index] = [:]
        for language in languages {
            defer { docsKept?(sharing?.docs.count ?? 0) }
            var index = Index()
            index.head = SearchIndexBuilder.build(
                site[language]!, language: language, languages: languages, until: { false },
                emit: { for file in $0 { index.files[file.path] = file.contents } },
                memo: { (index.formPages, index.buckets, index.frequentTerms) = ($0.formPages, $0.buckets, $0.frequentTerms) }, sharing: sharing)
            indexes[language] = index
        }
        return indexes
    }

    func testSharedWorkMakesTheIndexEachLanguageMakesAlone() {
        for (seed, articles) in [(UInt64(26_112_026), 400), (5, 40)] {
            let site = Self.site(seed: seed, articles: articles)
            let alone = Self.build(site, sharing: nil)
            XCTAssertEqual(alone["de"]!.files.count > 1, articles > 64, "seed \(seed): an index of several files, or of one")
            // The articles untranslated in de, fr and ja, in each one's order.
            let shared = Set(site["de"]!.compactMap(\.source)).intersection(site["fr"]!.compactMap(\.source)).intersection(site["ja"]!.compactMap(\.source))
            XCTAssertGreaterThan(shared.count, articles / 3, "seed \(seed)")
            let sources = site.mapValues { $0.compactMap(\.source) }
            for (spill, served) in [(TextSpill(), 3), (nil, 1)] {
                let sharing = SearchIndexSharing(sources: sources, spill: spill)
                var docsKept: [Int] = []
                let together = Self.build(site, sharing: sharing) { docsKept.append($0) }
                let kept = spill == nil ? "nothing kept" : "kept"
                XCTAssertEqual(sharing.languagesServed, served, "seed \(seed), \(kept): languages that took shared scores")
                // Every shared source's text, from the first language on, let go after the last.
                XCTAssertEqual(docsKept.last, 0, "seed \(seed)")
                if spill == nil {
                    XCTAssertEqual(docsKept.max(), 0, "seed \(seed)")
                } else if articles > 64 {
                    XCTAssertGreaterThanOrEqual(docsKept[0], shared.count, "seed \(seed)")
                }
                for language in Self.languages {
                    XCTAssertEqual(Set(together[language]!.files.keys), Set(alone[language]!.files.keys), "seed \(seed) \(language)")
                    for (path, text) in alone[language]!.files where together[language]!.files[path] != text {
                        XCTFail("seed \(seed), \(kept): \(language) \(path) differs when work is shared")
                    }
                    XCTAssertTrue(together[language]! == alone[language]!, "seed \(seed), \(kept): \(language)'s entry and memo")
                }
            }
        }
    }

    /// Sources the pages do not have (a caller's mistake) share nothing and change nothing.
    func testSourcesThePagesLackShareNothing() {
        let site = Self.site(seed: 11, articles: 60)
        let alone = Self.build(site, sharing: nil)
        let sharing = SearchIndexSharing(sources: Dictionary(uniqueKeysWithValues: Self.languages.map { ($0, ["articles/elsewhere.md"]) }))
        XCTAssertTrue(Self.build(site, sharing: sharing) == alone)
        XCTAssertEqual(sharing.languagesServed, 0)
    }
}
