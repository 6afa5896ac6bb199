import DetourDiagnostics
import XCTest

@testable import DetourVerify

/// How `detour check`'s findings are held to `detour verify`'s: by rule and line, for the rules
/// verify can observe, a server's refusals compared as one.
final class CheckAgreementTests: XCTestCase {
    private func finding(_ rule: String, line: Int, _ severity: Severity = .error) -> Diagnostic {
        Diagnostic(severity, rule, "words of \(rule)", at: SourceLocation(path: "apache.conf", line: line, column: 1))
    }

    private func report(_ findings: [Diagnostic], probed: Bool = true) -> Verifier.Report {
        var report = Verifier.Report()
        report.diagnostics = findings
        if probed {
            report.observations = [
                VerifyObservation(
                    site: 0, route: 0, method: "GET", mode: .answers, host: "s0.test", port: 1, path: "/", status: 200, body: .site, reachedUpstream: true)
            ]
        }
        return report
    }

    private func kinds(_ checked: [Diagnostic], _ verified: Verifier.Report) -> [String] {
        CheckAgreement(.apache).disagreements(checked: checked, verified: verified).map { "\($0.kind.rawValue) \($0.rule) \($0.place)" }
    }

    func testEachSideSaysWhatTheOtherDoesNot() {
        let checked = [finding("apache.code-not-covered", line: 19), finding("apache.error-page-proxied", line: 30)]
        let verified = report([finding("apache.code-not-covered", line: 19), finding("apache.error-page-protected", line: 30)])
        XCTAssertEqual(kinds(checked, verified), ["missed apache.error-page-protected apache.conf:30", "false alarm apache.error-page-proxied apache.conf:30"])
    }

    func testOneRuleAtOtherLinesIsAPlaceAndAtOneLineASeverity() {
        let checked = [finding("apache.error-page-proxied", line: 20), finding("apache.code-not-covered", line: 19, .warning)]
        let verified = report([finding("apache.error-page-proxied", line: 21), finding("apache.code-not-covered", line: 19)])
        XCTAssertEqual(
            kinds(checked, verified),
            [
                "severity apache.code-not-covered apache.conf:19: check says warning, verify error",
                "place apache.error-page-proxied verify at apache.conf:21, check at apache.conf:20",
            ])
    }

    /// A rule verify cannot observe (a text ErrorDocument) is not judged.
    func testRulesVerifyCannotObserveAreNotJudged() {
        XCTAssertEqual(kinds([finding("apache.error-document-text", line: 27)], report([])), [])
    }

    /// A page the upstream serves (`error_page 500 =200 /errors/500.html` that the application
    /// answers) is sent as 200 only where the upstream answers the page's own path, which the
    /// fake upstream, failing every path at once, never does: check's soft status there is not
    /// judged; elsewhere it is.
    func testASoftStatusAtAPageTheUpstreamServesIsNotJudged() {
        let verified = report([finding("apache.error-page-proxied", line: 12)])
        XCTAssertEqual(kinds([finding("apache.error-page-proxied", line: 12), finding("apache.error-page-soft-status", line: 12)], verified), [])
        XCTAssertEqual(
            kinds([finding("apache.error-page-proxied", line: 12), finding("apache.error-page-soft-status", line: 13)], verified),
            ["false alarm apache.error-page-soft-status apache.conf:13"])
    }

    /// A line verify could not probe (a page only a failing file of the site's gets): check's
    /// finding there is judged only where verify saw it too.
    func testWhatVerifyCouldNotProbeIsNotAFalseAlarm() {
        var verified = report([])
        verified.notProbed = [(SourceLocation(path: "apache.conf", line: 26), "ErrorDocument 500 in <Directory>")]
        XCTAssertEqual(kinds([finding("apache.error-document-url", line: 26)], verified), [])
        XCTAssertEqual(kinds([finding("apache.error-document-url", line: 27)], verified), ["false alarm apache.error-document-url apache.conf:27"])
    }

    /// A code left uncovered that no probe met (a 400 or 414 Apache raises for a malformed
    /// request, which verify does not send) is not judged; one a probe met is.
    func testAStatusNoProbeMetIsNotJudged() {
        var uncovered = finding("apache.code-not-covered", line: 19)
        uncovered.codes = [400, 414]
        XCTAssertEqual(kinds([uncovered], report([])), [])
        uncovered.codes = [200, 414]
        XCTAssertEqual(kinds([uncovered], report([])), ["false alarm apache.code-not-covered apache.conf:19"])
    }

    /// Apache stops at the first line it refuses: check naming it and a later one agrees;
    /// check naming only the later one is at the wrong place.
    func testARefusalIsJudgedAtTheLineTheServerStoppedAt() {
        let refused = report([finding("apache.syntax", line: 29)], probed: false)
        XCTAssertEqual(kinds([finding("apache.syntax", line: 29), finding("apache.syntax", line: 30)], refused), [])
        XCTAssertEqual(kinds([finding("apache.syntax", line: 30)], refused), ["place apache.refused verify at apache.conf:29, check at apache.conf:30"])
        XCTAssertEqual(kinds([finding("apache.code-not-covered", line: 19)], refused), ["missed apache.refused apache.conf:29"])
    }
}
