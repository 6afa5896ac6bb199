import DetourDiagnostics
import XCTest

@testable import DetourNginx

/// What a server-level `if` does when nginx runs it again for the redirect to an error page.
final class NginxConditionTests: XCTestCase {
    private func outcome(_ condition: String, page: String = "/errors/503.html") -> NginxCondition.Outcome? {
        let file = NginxParser.parse(Array("if \(condition) { return 403; }".utf8), fileID: 0, path: "t.conf")
        let config = NginxConfig(files: [file], entries: file.entries)
        return NginxCondition(config.directives[0])?.outcome(onRedirectTo: page)
    }

    func testWhatTheRedirectKeepsHoldsAsBefore() {
        XCTAssertEqual(outcome(#"($request_uri ~ "/\.(?!well-known\/)")"#), .asBefore)
        XCTAssertEqual(outcome("($http_user_agent ~* bot)"), .asBefore)
        XCTAssertEqual(outcome("($host != $server_name)"), .asBefore)
    }

    func testThePagesURIAndMethodAreTheRedirectsOwn() {
        XCTAssertEqual(outcome(#"($uri ~ "^/errors/")"#), .holds)
        XCTAssertEqual(outcome(#"($uri ~ "^/closed/")"#), .fails)
        XCTAssertEqual(outcome("($uri = /errors/503.html)"), .holds)
        // nginx turns the method into GET for a URI target: a method filter lets the page through.
        XCTAssertEqual(outcome("($request_method !~ ^(GET|POST|HEAD)$)"), .fails)
        XCTAssertEqual(outcome("($args)"), .fails, "the page's URI carries no arguments")
    }

    func testWhatCannotBeKnownIsUnknown() {
        XCTAssertEqual(outcome("($maintenance)"), .unknown)
        XCTAssertEqual(outcome("(-f $document_root/maintenance.html)"), .unknown)
        XCTAssertEqual(outcome("($uri ~ $pattern)"), .unknown)
    }
}
