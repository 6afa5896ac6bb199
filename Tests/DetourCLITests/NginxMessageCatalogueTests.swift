import Foundation
import XCTest

/// nginx 1.22's catalogue (LogCatalogue/nginx-1.22.tsv, from scripts/server-messages/nginx.py)
/// against its verdicts (LogCatalogue/nginx-verdicts.tsv), keyed by the message's text.
final class NginxMessageCatalogueTests: XCTestCase {
    private let catalogue = ServerMessageCatalogue(
        verdictTable: "LogCatalogue/nginx-verdicts.tsv",
        messages: TestDataTable.rows("LogCatalogue/nginx-1.22.tsv", fields: 3).map { .init(source: $0[0], key: $0[2], level: $0[1], text: $0[2]) },
        verdicts: TestDataTable.rows("LogCatalogue/nginx-verdicts.tsv", fields: 4).map { .init(key: $0[0], example: $0[1], slug: $0[2], reason: $0[3]) },
        field: try! NSRegularExpression(pattern: #"%(\*|0?\d+)?(u|x|X)?[A-Za-z]"#),
        prefix: { _ in "" },
        logLine: { text, message in
            // nginx 1.22's error log: time, level, pid, connection, then the request's context.
            let level = ["connection": "error", "variable": "error"][message.level] ?? message.level
            return "2026/11/25 06:00:00 [\(level)] 1234#1234: *7 \(text), client: 203.0.113.7, server: example.com, request: \"GET /orders/7 HTTP/1.1\", "
                + "upstream: \"\(NginxMessageCatalogueTests.upstreamScheme(message.source))://10.0.0.9:8080/orders/7\", host: \"example.com\""
        })

    /// The scheme nginx writes before the upstream's address: the module that logged the message
    /// speaks to it (`ngx_http_grpc_module.c` → `grpc`), the proxy and the core `http`.
    private static func upstreamScheme(_ source: String) -> String {
        for module in ["grpc", "fastcgi", "uwsgi", "scgi"] where source.hasPrefix("ngx_http_\(module)_module.c") { return module }
        return "http"
    }

    func testEveryMessageHasAVerdictAndEveryVerdictAMessage() {
        XCTAssertGreaterThan(catalogue.messages.count, 250, "the catalogue is read from nginx's source")
        catalogue.checkEveryMessageIsJudged()
    }

    func testDiagnoseSendsEachMessageWhereItsVerdictSays() throws {
        try catalogue.checkDiagnoseFollowsTheVerdicts(emergSlug: "configuration-refused")
    }
}
