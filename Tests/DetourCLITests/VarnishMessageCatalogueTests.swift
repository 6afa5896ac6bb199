import Foundation
import XCTest

/// Varnish's reasons for a failed fetch, 4.0 to 7.1 (LogCatalogue/varnish-fetcherror.tsv, from
/// scripts/server-messages/varnish.py), against their verdicts (LogCatalogue/varnish-verdicts.tsv),
/// each as `varnishlog` prints the backend request's FetchError record.
final class VarnishMessageCatalogueTests: XCTestCase {
    private let catalogue = ServerMessageCatalogue.varnish

    func testEveryReasonHasAVerdictAndEveryVerdictAReason() {
        XCTAssertGreaterThan(catalogue.messages.count, 50, "the catalogue is read from Varnish's source")
        catalogue.checkEveryMessageIsJudged()
    }

    func testDiagnoseSendsEachReasonWhereItsVerdictSays() throws {
        try catalogue.checkDiagnoseFollowsTheVerdicts(emergSlug: "configuration-refused")
    }
}

extension ServerMessageCatalogue {
    /// The release this machine runs, whose messages the reproductions make it write.
    static let varnishRunHere = "7.1.1"

    static var varnish: ServerMessageCatalogue {
        ServerMessageCatalogue(
            verdictTable: "LogCatalogue/varnish-verdicts.tsv",
            messages: TestDataTable.rows("LogCatalogue/varnish-fetcherror.tsv", fields: 4).map {
                .init(source: $0[0], key: $0[3], level: $0[2], text: $0[3], releases: $0[1].split(separator: " ").map(String.init))
            },
            verdicts: TestDataTable.rows("LogCatalogue/varnish-verdicts.tsv", fields: 4).map { .init(key: $0[0], example: $0[1], slug: $0[2], reason: $0[3]) },
            field: try! NSRegularExpression(pattern: #"%[-0-9.]*[a-z]"#),
            prefix: { _ in "" },
            // varnishlog's default grouping: the record's tag padded, then its text.
            logLine: { text, _ in "-   FetchError     \(text)" })
    }

    /// The lines of Varnish releases before the one this machine runs (4.x, 6.0) that an
    /// article explains: no reproduction here can make them, their source is the evidence.
    static var varnishSourceOnlyLines: [String] {
        varnish.explainedLines { !$0.releases.contains(varnishRunHere) }
    }
}
