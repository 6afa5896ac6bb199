import DetourTestSupport
import Foundation
import XCTest

/// Shapes of real questions the shipped knowledge base must answer, each for a reason of its
/// own: a directive named whole in a question outweighs a word of another page's title, an
/// abbreviation inside an identifier finds what it stands for, a status with its reason phrase
/// is a question rather than a pasted log line, a word repeated does not push the quoted error
/// out of the words read, and the last word's rare completions do not make it weigh more.
final class SearchQuestionShapesBrowserTests: XCTestCase {
    func testQuestionShapesFindTheirArticle() throws {
        let site = try SampleSite.shipped()
        defer { site.remove() }
        XCTAssertEqual(try ProcessRunner.detour(["build", "--quiet"], in: site.url).status, 0)
        let search = site.url.appendingPathComponent("public/search/index.html").absoluteString + "?q="
        func results(_ query: String) throws -> [String] {
            let encoded = try XCTUnwrap(query.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            return SearchResultsMarkup.results(try Chromium.dumpDOM(search + encoded))
        }
        let cases: [(query: String, article: String, within: Int)] = [
            // `flag` is in the termination states' title; the directive is in one paragraph.
            ("proxy_cache_use_stale flag", "caches-serving-errors", 1),
            // mod_proxy_wstunnel_ws: `ws` is WebSocket.
            ("mod_proxy_wstunnel_ws 502", "websocket-and-grpc", 1),
            // Every plain word is in some article's log lines, but no log line says `Service Unavailable`.
            ("503 Service Unavailable: Apache proxy to php-fpm socket fails", "apache-php-fpm", 1),
            // Fourteen words, five of them repeats: the error quoted last is read too.
            (
                "App unreachable after deploy error error error error proxy server proxy server: Reason: Error reading from remote server",
                "upstream-closed-connection", 3
            ),
            // `conf` is as common as `config`, not as rare as `confirm`.
            ("add proxy_buffer_size to the conf", "upstream-header-too-big", 1),
        ]
        for (query, article, within) in cases {
            let found = try results(query)
            XCTAssertTrue(
                found.prefix(within).contains { $0.contains("/public/articles/\(article)/") },
                "\(query): \(article) within the first \(within), got \(found.prefix(3).map { $0.prefix(160) })")
        }
    }
}
