import Foundation
import XCTest

/// HAProxy 2.6's termination states and failing health-check reasons (LogCatalogue/haproxy-2.6.tsv,
/// from scripts/server-messages/haproxy.py) against their verdicts (LogCatalogue/haproxy-verdicts.tsv).
final class HAProxyMessageCatalogueTests: XCTestCase {
    private let catalogue = ServerMessageCatalogue(
        verdictTable: "LogCatalogue/haproxy-verdicts.tsv",
        messages: TestDataTable.rows("LogCatalogue/haproxy-2.6.tsv", fields: 3).map { .init(source: $0[2], key: $0[1], level: $0[0], text: $0[1]) },
        verdicts: TestDataTable.rows("LogCatalogue/haproxy-verdicts.tsv", fields: 4).map { .init(key: $0[0], example: $0[1], slug: $0[2], reason: $0[3]) },
        // States and reasons are written as they are: no fields to fill in.
        field: try! NSRegularExpression(pattern: "(?!)"),
        prefix: { _ in "" },
        logLine: { text, message in
            // `option httplog` from the frontend on; a check's line after HAProxy's own prefix.
            message.level == "state" ? "127.0.0.1:51234 [25/Nov/2026:06:00:00.123] web \(text)" : "[WARNING]  (1234) : \(text)"
        },
        defaultExample: { message, _ in
            message.level == "state"
                ? "app/app1 0/0/1/2/3 200 1076 - - \(message.key) 1/1/0/0/0 0/0 \"GET / HTTP/1.1\""
                : "Server app/app1 is DOWN, reason: \(message.key), check duration: 3ms. 0 active and 0 backup servers left."
        })

    func testEveryStateAndCheckReasonHasAVerdict() {
        XCTAssertEqual(catalogue.messages.filter { $0.level == "state" }.count, 96, "12 reasons a session ends by 8 places it can be")
        catalogue.checkEveryMessageIsJudged()
    }

    func testDiagnoseSendsEachStateAndReasonWhereItsVerdictSays() throws {
        try catalogue.checkDiagnoseFollowsTheVerdicts(emergSlug: "configuration-refused")
    }
}
