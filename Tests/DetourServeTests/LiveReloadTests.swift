import DetourDiagnostics
import Foundation
import XCTest

@testable import DetourServe

/// The reload script goes where a String search for the last `</body>`, ignoring case, puts
/// it, though the preview finds the place on the page's bytes.
final class LiveReloadTests: XCTestCase {
    func testTheScriptGoesBeforeTheLastBodyEndInAnyCase() {
        let reload = LiveReload()
        let pieces = ["<p>text</p>", "</body>", "</BODY>", "</Body>", "</body", "<body>", "</bodyx>", "é", "<", "/", "body>", "\r\n", "</html>", "日本"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let html = (0..<Int.random(in: 0...8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let injected = String(decoding: reload.inject(into: Data(html.utf8)), as: UTF8.self)
            XCTAssertEqual(injected, expected(html, added: "<script src=\"/__detour/live.js\" data-generation=\"0\"></script>"), html)
        }
    }

    func testAFailureIsLaidOverThePageAsText() {
        let reload = LiveReload()
        reload.finished([.error("content.front-matter", "title: <img src=x onerror=alert(1)>", at: .init(path: "content/articles/a.md", line: 2, column: 8))])
        let page = String(decoding: reload.inject(into: Data("<html><body><p>page</p></body></html>".utf8)), as: UTF8.self)
        XCTAssertTrue(page.contains("detour-build-failed"), page)
        XCTAssertTrue(page.contains("content/articles/a.md:2:8"), page)
        XCTAssertFalse(page.contains("<img src=x"), page)
        XCTAssertTrue(page.hasSuffix("</script></body></html>"), page)
    }

    /// The String search the bytes stand in for.
    private func expected(_ html: String, added: String) -> String {
        guard let end = html.range(of: "</body>", options: [.backwards, .caseInsensitive]) else { return html + added }
        return html.replacingCharacters(in: end.lowerBound..<end.lowerBound, with: added)
    }
}
