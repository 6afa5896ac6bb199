import Foundation
import XCTest

/// gunicorn's catalogue, 20.1 (Debian 12's) and 23 (LogCatalogue/gunicorn.tsv, from
/// scripts/server-messages/gunicorn.py), against its verdicts (LogCatalogue/gunicorn-verdicts.tsv),
/// keyed by level and message as gunicorn writes them.
final class GunicornMessageCatalogueTests: XCTestCase {
    private let catalogue = ServerMessageCatalogue(
        verdictTable: "LogCatalogue/gunicorn-verdicts.tsv",
        messages: TestDataTable.rows("LogCatalogue/gunicorn.tsv", fields: 4).map {
            .init(source: $0[0], key: "[\($0[2])] \($0[3])", level: $0[2], text: $0[3])
        },
        verdicts: TestDataTable.rows("LogCatalogue/gunicorn-verdicts.tsv", fields: 4).map { .init(key: $0[0], example: $0[1], slug: $0[2], reason: $0[3]) },
        field: try! NSRegularExpression(pattern: #"%[-0-9.]*[a-z]"#),
        prefix: { "[\($0.level)] " },
        // gunicorn's own log: its time and the process's pid, then the level and message.
        logLine: { text, _ in "[2026-11-25 06:00:00 +0000] [7510] \(text)" })

    func testEveryMessageHasAVerdictAndEveryVerdictAMessage() {
        XCTAssertGreaterThan(catalogue.messages.count, 40, "the catalogue is read from gunicorn's source")
        catalogue.checkEveryMessageIsJudged()
    }

    func testDiagnoseSendsEachMessageWhereItsVerdictSays() throws {
        try catalogue.checkDiagnoseFollowsTheVerdicts(emergSlug: "configuration-refused")
    }
}
