import DetourTestSupport
import Foundation
import XCTest

/// Shapes of real questions the shipped knowledge base must answer, each for a reason of its own: a
/// directive named whole in a question outweighs a word of another page's title (its stem no
/// matter), an abbreviation inside an identifier finds what it stands for (and a word there its
/// abbreviation), a status with its reason phrase is a question rather than a pasted log line, a
/// word repeated does not push the quoted error out of the words read, the last word's rare
/// completions do not make it weigh more, a question answered from the log lines still reads its
/// own words and counts an identifier named whole, a JSON log line ranks by its values rather than
/// its keys, a short question with an identifier reads the whole index, a long one written as prose
/// rather than as a log line does too, and so does a line the log lines explain less than half of
/// (Envoy's, quoted in an article's table, or a question that only looks like a line), two words
/// run together find the first, and an identifier
/// written with the other joiner (`-` for `_`) is the site's, its piece the site lacks is the word
/// that begins it, and a Chinese sentence's characters do not crowd out the error it quotes; and a
/// number is whole, so one the site lacks does not bring a page of a number that begins it.
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
            // Every word but `reload` is in some log line: the log file answers, `reload` read too.
            ("nginx returns 502 during php-fpm reload", "php-fpm-socket-unavailable", 3),
            // `level`, `logger`, `msg` are any Caddy line's; the message is this one's.
            (
                #"{"level":"error","logger":"http.log.error","msg":"dial tcp 127.0.0.1:9000: connect: connection refused","status":502}"#,
                "upstream-connection-refused", 1
            ),
            // Three words, none of them side by side with another in a log line: a question.
            ("tune php-fpm pool", "overload-and-queues", 1),
            // Most words are log words, but `return custom`, `custom errors`... stand side by
            // side in no log line: a question, which any page may answer.
            ("how to return custom errors from auth_request besides 401 403", "auth-request-failed", 1),
            // Short, and no plain words side by side, but its only numbers are statuses with a
            // page: a question about them, not a pasted line (whose numbers are sizes, ports, times).
            ("auth_request returns 401 403", "auth-request-failed", 1),
            // `ReferenceGrant` stems to `referencegr`; named whole it still outweighs `reference`.
            ("ReferenceGrant", "kubernetes-ingress", 1),
            // Read from the log lines, but `backendRef`, named whole, is on a page without any.
            ("invalid backendRef returns 500 from upstream", "kubernetes-ingress", 1),
            // Inside an identifier `request` is also `req` (ingress-nginx's `limit-req-status-code`).
            ("change limit-request-status-code", "rate-limiting", 1),
            // No article has `postgresqlconnection`; `postgresql` begins it.
            ("postgresqlconnection refused", "database-or-api-down", 1),
            // The directive `limit_req` as an ingress annotation writes it, with a dash.
            ("limit-req cannot limit access", "rate-limiting", 1),
            // No page says `alerts`; inside an identifier, as alone, it is `alert`.
            ("haproxy-alerts", "monitoring-5xx", 1),
            // Envoy's body: every word is in some nginx line, but no page's log lines explain
            // half of it; the page quoting it whole in a table comes first.
            ("upstream connect error or disconnect/reset before headers. reset reason: connection termination", "kubernetes-ingress", 1),
            // A host name and `5xx` make it look like a line; no log line explains it.
            ("wallaceletters.info not being indexed either! Server error (5xx)", "5xx-and-seo", 3),
            // Fourteen pairs of ideographs before the error: the error is still read.
            ("我在使用这个Nginx配置的时候，出现错误ERR_SSL_PROTOCOL_ERROR", "visitor-tls-handshake", 1),
        ]
        for (query, article, within) in cases {
            let found = try results(query)
            XCTAssertTrue(
                found.prefix(within).contains { $0.contains("/public/articles/\(article)/") },
                "\(query): \(article) within the first \(within), got \(found.prefix(3).map { $0.prefix(160) })")
        }
        // nginx for Windows writes its errno (10061: refused, 10060: timed out); no page has
        // them, and 1006 is the close code of the WebSocket page, not their start.
        for query in ["error 10061", "10060 timed out"] {
            let found = try results(query)
            XCTAssertFalse(
                found.prefix(3).contains { $0.contains("/public/articles/websocket-and-grpc/") },
                "\(query): the WebSocket page among the first three, \(found.prefix(3).map { $0.prefix(160) })")
        }
    }
}
