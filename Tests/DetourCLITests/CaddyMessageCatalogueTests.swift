import Foundation
import XCTest

/// Caddy 2.6's reverse_proxy catalogue (LogCatalogue/caddy-2.6.tsv, from
/// scripts/server-messages/caddy.py) against its verdicts (LogCatalogue/caddy-verdicts.tsv),
/// keyed by kind, level and text.
final class CaddyMessageCatalogueTests: XCTestCase {
    private let catalogue = ServerMessageCatalogue(
        verdictTable: "LogCatalogue/caddy-verdicts.tsv",
        messages: TestDataTable.rows("LogCatalogue/caddy-2.6.tsv", fields: 5).map {
            .init(source: $0[0], key: "\($0[2]) \($0[3]) \($0[4])", level: $0[2], text: $0[4])
        },
        verdicts: TestDataTable.rows("LogCatalogue/caddy-verdicts.tsv", fields: 4).map { .init(key: $0[0], example: $0[1], slug: $0[2], reason: $0[3]) },
        // Go's fmt verbs.
        field: try! NSRegularExpression(pattern: #"%[-+# 0-9.]*[a-zA-Z]"#),
        prefix: { _ in "" },
        logLine: { text, message in
            // The refusal as `caddy run` and `caddy validate` print it; otherwise a JSON line:
            // the handler's logger, or http.log.error for an error a request ended with.
            guard !text.hasPrefix("Error: ") else { return text }
            let msg = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            return message.level.hasPrefix("log")
                ? #"{"level":"error","ts":1795588184.4,"logger":"http.handlers.reverse_proxy","msg":"\#(msg)"}"#
                : #"{"level":"error","ts":1795588184.4,"logger":"http.log.error","msg":"\#(msg)","request":{"remote_ip":"203.0.113.7","method":"GET","uri":"/orders/7"},"duration":0.001,"status":502}"#
        },
        defaultExample: { message, text in
            guard message.level == "error/provision" else { return text }
            return "Error: loading http app module: provision http: server srv0: setting up route handlers: route 0: loading handler modules: "
                + "position 0: loading module 'reverse_proxy': provision http.handlers.reverse_proxy: \(text)"
        })

    func testEveryMessageHasAVerdictAndEveryVerdictAMessage() {
        XCTAssertGreaterThan(catalogue.messages.count, 60, "the catalogue is read from Caddy's source")
        catalogue.checkEveryMessageIsJudged()
    }

    func testDiagnoseSendsEachMessageWhereItsVerdictSays() throws {
        try catalogue.checkDiagnoseFollowsTheVerdicts(emergSlug: "configuration-refused")
    }
}
