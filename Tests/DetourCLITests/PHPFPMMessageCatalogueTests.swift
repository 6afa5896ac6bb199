import Foundation
import XCTest

/// PHP-FPM 8.2's catalogue of pool, child, process-manager and start-up messages
/// (LogCatalogue/php-fpm-8.2.tsv, from scripts/server-messages/php-fpm.py) against its verdicts
/// (LogCatalogue/php-fpm-verdicts.tsv), keyed by the message's text.
final class PHPFPMMessageCatalogueTests: XCTestCase {
    private let catalogue = ServerMessageCatalogue(
        verdictTable: "LogCatalogue/php-fpm-verdicts.tsv",
        messages: TestDataTable.rows("LogCatalogue/php-fpm-8.2.tsv", fields: 2).map { .init(source: $0[0], key: $0[1], level: "warning", text: $0[1]) },
        verdicts: TestDataTable.rows("LogCatalogue/php-fpm-verdicts.tsv", fields: 4).map { .init(key: $0[0], example: $0[1], slug: $0[2], reason: $0[3]) },
        field: try! NSRegularExpression(pattern: #"%[-0-9.]*(ll|l|h)?[A-Za-z]"#),
        prefix: { _ in "" },
        // PHP-FPM's own log: its time and level, then the message.
        logLine: { text, _ in "[25-Nov-2026 06:00:00] WARNING: \(text)" })

    func testEveryMessageHasAVerdictAndEveryVerdictAMessage() {
        XCTAssertGreaterThan(catalogue.messages.count, 90, "the catalogue is read from the php-fpm binary")
        catalogue.checkEveryMessageIsJudged()
    }

    /// The refusals diagnose sends where `FPM initialization failed` goes are the catalogue's,
    /// as its verdicts say today.
    func testRefusalLinesAreWhatTheScriptDerivesFromTheVerdicts() throws {
        try ServerMessageCatalogue.checkDerivedFile(script: "php-fpm-refusals.py", shipped: "Sources/DetourLogs/PHPFPMRefusalLines.swift")
    }

    func testDiagnoseSendsEachMessageWhereItsVerdictSays() throws {
        try catalogue.checkDiagnoseFollowsTheVerdicts(emergSlug: "configuration-refused")
    }
}
