import DetourDiagnostics
import DetourProxyCore
import DetourTestSupport
import Foundation
import XCTest

@testable import DetourCaddy

/// How a `handle_errors` block is read into routes: what stands before the page, and which
/// requests and codes reach it.
final class CaddyErrorRouteTests: XCTestCase {
    private func findings(_ handleErrors: String) throws -> [String] {
        let folder = try TemporaryFolder(files: [
            "Caddyfile": "shop.test {\n\tfile_server\n\thandle_errors {\n\(handleErrors)\t}\n}\n",
            "errors/502.html": "<p>502</p>",
        ])
        defer { folder.remove() }
        let report = CaddyChecker.check(
            .init(
                main: folder.url.appendingPathComponent("Caddyfile"), mainDisplay: "Caddyfile", pages: folder.url.appendingPathComponent("errors"),
                maps: [PagePathMap(installPath: "/srv/errors", localPath: folder.path + "/errors")]))
        return report.diagnostics.map { "\($0.location.line): [\($0.rule)] \($0.message)" }
    }

    private let page = "\t\troot * /srv/errors\n\t\trewrite * /{err.status_code}.html\n\t\tfile_server\n"

    func testForwardAuthBeforeThePageIsReported() throws {
        let found = try findings("\t\tforward_auth 127.0.0.1:9091 {\n\t\t\turi /verify\n\t\t}\n" + page)
        XCTAssertEqual(found.count, 1, "\(found)")
        XCTAssertTrue(found.first?.hasPrefix("4: [caddy.error-page-protected] the error pages are behind forward_auth") == true, "\(found)")
    }

    func testAGuardWhosePathThePageDoesNotMatchIsSilent() throws {
        XCTAssertEqual(try findings("\t\tbasicauth /admin/* {\n\t\t\tu $2a$14$IVXYD2.dwJrqC4Yqf3TaJu0uxeIRVJOU5wD9SXPeN44w2F522ysBi\n\t\t}\n" + page), [])
        let matching = try findings("\t\tbasicauth /5* {\n\t\t\tu $2a$14$IVXYD2.dwJrqC4Yqf3TaJu0uxeIRVJOU5wD9SXPeN44w2F522ysBi\n\t\t}\n" + page)
        XCTAssertEqual(matching.first?.hasPrefix("4: [caddy.error-page-protected]"), true, "\(matching)")
    }

    func testAStatusMatcherNarrowsCodesAndARequestMatcherNarrowsVisitors() throws {
        let byStatus = try findings("\t\t@bad expression `{err.status_code} >= 500`\n\t\thandle @bad {\n" + page + "\t\t}\n")
        XCTAssertEqual(byStatus, [], "a status matcher lets every visitor in")
        let byPath = try findings("\t\thandle /api/* {\n" + page + "\t\t}\n")
        XCTAssertEqual(
            byPath,
            [
                "4: [caddy.error-page-protected] pages for 502 are sent only to requests that match /api/*: every other visitor gets the status with an empty body"
            ])
    }

    func testARespondWithAMatcherLeavesTheFileServer() throws {
        XCTAssertEqual(try findings("\t\t@api path /api/*\n\t\trespond @api \"{\\\"error\\\": true}\"\n" + page), [])
        let shadowing = try findings("\t\trespond * \"down\"\n" + page)
        XCTAssertEqual(shadowing.first?.hasPrefix("4: [caddy.respond-shadows-file-server]"), true, "* matches everything: \(shadowing)")
    }
}
