import DetourTestSupport
import Foundation
import XCTest

/// `detour serve` on a knowledge base large enough that its first build takes a while: what is
/// saved during that build is served after it, as any later save is.
final class ServeFirstBuildTests: XCTestCase {
    func testASaveDuringTheFirstBuildIsServedAfterIt() throws {
        let folder = try SampleSite.synthetic(articles: 400)
        defer { folder.remove() }
        let temporary = folder.url.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: false)
        let section = folder.url.appendingPathComponent("content/articles/section-7")
        let name = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: section.path).filter { $0.hasSuffix(".md") }.sorted().first)
        let article = section.appendingPathComponent(name)

        let port = LoopbackPort.free()
        let server = try ServerProcess(
            executable: Repository.detourExecutable, ["serve", "--port", String(port)], in: folder.url, environment: ["TMPDIR": temporary.path],
            log: folder.url.appendingPathComponent("serve.log"))
        defer { server.stop() }
        // Once the first build writes pages, it has read the content: the save comes after.
        XCTAssertTrue(Poll.until(timeout: 120) { Self.writesPages(under: temporary) }, "the first build never wrote a page: \(server.log)")
        XCTAssertFalse(LoopbackPort.isOpen(port), "the first build finished before the save; the test proved nothing")
        let marker = "saved-while-building-\(port)"
        try (try String(contentsOf: article, encoding: .utf8) + "\n\(marker)\n").write(to: article, atomically: false, encoding: .utf8)

        let page = "http://127.0.0.1:\(port)/articles/\(name.dropLast(3))/"
        XCTAssertTrue(Poll.until(timeout: 120) { ((try? HTTPClient.get(page).body) ?? "").contains(marker) }, server.log)
        XCTAssertFalse(((try? HTTPClient.get(page).body) ?? "").contains("detour-build-failed"), server.log)
    }

    /// Whether a preview's staging folder (`detour-serve.*/.site.detour-build-*`) has files.
    private static func writesPages(under temporary: URL) -> Bool {
        let manager = FileManager.default
        for preview in (try? manager.contentsOfDirectory(atPath: temporary.path)) ?? [] where preview.hasPrefix("detour-serve.") {
            let folder = temporary.path + "/" + preview
            for staging in (try? manager.contentsOfDirectory(atPath: folder)) ?? [] where staging.hasPrefix(".site.detour-build-") {
                if !((try? manager.contentsOfDirectory(atPath: folder + "/" + staging)) ?? []).isEmpty { return true }
            }
        }
        return false
    }
}
