import Foundation
import XCTest

/// Apache httpd 2.4's catalogue of mod_proxy, mod_ssl and request-reading messages
/// (LogCatalogue/apache-2.4.tsv, from scripts/server-messages/apache.py) against its verdicts
/// (LogCatalogue/apache-verdicts.tsv), keyed by AH number.
final class ApacheMessageCatalogueTests: XCTestCase {
    private let catalogue = ServerMessageCatalogue(
        verdictTable: "LogCatalogue/apache-verdicts.tsv",
        messages: TestDataTable.rows("LogCatalogue/apache-2.4.tsv", fields: 4).map { .init(source: $0[0], key: $0[1], level: $0[2], text: $0[3]) },
        verdicts: TestDataTable.rows("LogCatalogue/apache-verdicts.tsv", fields: 4).map { .init(key: $0[0], example: $0[1], slug: $0[2], reason: $0[3]) },
        // printf's fields and APR's own (%pI an address, %pm an error, %pT a thread).
        field: try! NSRegularExpression(pattern: #"%(p[A-Za-z]|[-0-9.*]*(ll|l|h)?[A-Za-z])"#),
        prefix: { "\($0.key): " },
        logLine: { text, message in
            // Apache 2.4's error log: time, module and level, process and thread, then the text.
            let file = message.source.prefix { $0 != "." }
            let module = file.hasPrefix("ssl_") ? "ssl" : file == "protocol" ? "core" : file.hasPrefix("mod_proxy_") ? String(file.dropFirst(4)) : "proxy"
            let level = ["err": "error", "warning": "warn", "variable": "error"][message.level] ?? message.level
            return "[Wed Nov 25 06:00:00.123456 2026] [\(module):\(level)] [pid 1234:tid 5678] \(text)"
        })

    func testEveryMessageHasAVerdictAndEveryVerdictAMessage() {
        XCTAssertGreaterThan(catalogue.messages.count, 250, "the catalogue is read from httpd's source")
        catalogue.checkEveryMessageIsJudged()
    }

    func testDiagnoseSendsEachMessageWhereItsVerdictSays() throws {
        try catalogue.checkDiagnoseFollowsTheVerdicts(emergSlug: "configuration-refused")
    }
}
