import DetourTestSupport
import Foundation
import XCTest

/// uWSGI 2.0's catalogue (LogCatalogue/uwsgi-2.0.tsv, from scripts/server-messages/uwsgi.py)
/// against its verdicts (LogCatalogue/uwsgi-verdicts.tsv), keyed by the line as uWSGI's format
/// writes it: uWSGI logs without levels.
final class UWSGIMessageCatalogueTests: XCTestCase {
    private let catalogue = ServerMessageCatalogue(
        verdictTable: "LogCatalogue/uwsgi-verdicts.tsv",
        messages: TestDataTable.rows("LogCatalogue/uwsgi-2.0.tsv", fields: 3).map { .init(source: $0[0], key: $0[2], level: $0[1], text: $0[2]) },
        verdicts: TestDataTable.rows("LogCatalogue/uwsgi-verdicts.tsv", fields: 4).map { .init(key: $0[0], example: $0[1], slug: $0[2], reason: $0[3]) },
        field: try! NSRegularExpression(pattern: #"%[-+ #0-9.*]*(ll|l|h|z)?[a-zA-Z]"#),
        prefix: { _ in "" },
        // uwsgi_log_verbose writes the date first; uwsgi_log writes the line alone.
        logLine: { text, message in message.level == "verbose" ? "Wed Nov 25 06:00:00 2026 - \(text)" : text })

    func testEveryLineHasAVerdictAndEveryVerdictALine() {
        XCTAssertGreaterThan(catalogue.messages.count, 500, "the catalogue is read from uWSGI's source")
        catalogue.checkEveryMessageIsJudged()
    }

    /// diagnose's routine uWSGI lines are the catalogue's, as its verdicts say today.
    func testRoutineLinesAreWhatTheScriptDerivesFromTheVerdicts() throws {
        try ServerMessageCatalogue.checkDerivedFile(script: "uwsgi-routine.py", shipped: "Sources/DetourLogs/UWSGIRoutineLines.swift")
    }

    /// uWSGI reads a packet's size from its second and third bytes, little-endian: HTTP sent to
    /// its own protocol gives a size made of the method's letters, which the shipped patterns
    /// tell from a request larger than buffer-size.
    func testHTTPSentToItsProtocolIsToldFromARequestTooLarge() throws {
        let (_, article) = try ServerMessageCatalogue.shippedArticles()
        for start in ["GET /", "POST /", "HEAD /", "PUT /", "DELETE /", "OPTIONS /", "PATCH /", "PRI * HTTP/2.0"] {
            let bytes = Array(start.utf8)
            let size = Int(bytes[1]) | Int(bytes[2]) << 8
            XCTAssertEqual(article("invalid request block size: \(size) (max 4096)...skip"), "upstream-closed-connection", start)
        }
        for size in [4097, 5117, 21574, 65535] {
            XCTAssertEqual(article("invalid request block size: \(size) (max 4096)...skip"), "request-too-large", "\(size)")
        }
    }

    func testDiagnoseSendsEachLineWhereItsVerdictSays() throws {
        try catalogue.checkDiagnoseFollowsTheVerdicts(emergSlug: "configuration-refused")
    }
}
