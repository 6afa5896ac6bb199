import DetourTestSupport
import Foundation
import XCTest

/// The maintenance article's nginx and Caddy configurations, copied from the article as a
/// reader would and run on the real servers: with the flag file present the visitor gets the
/// page with 503, Retry-After and no-store; without it, the application's answer.
final class MaintenanceArticleTests: XCTestCase {
    private let page = "<p>Back soon</p>\n"

    /// The text of the first fenced block under the heading `## <heading>` of the shipped article, with
    /// its `/var/www` in `folder` and its application at `upstream`.
    private func snippet(under heading: String, folder: String, upstream: String) throws -> String {
        let article = try String(contentsOf: Repository.content.appendingPathComponent("articles/proxy/maintenance-mode.md"), encoding: .utf8)
        let section = try XCTUnwrap(article.components(separatedBy: "\n## \(heading)\n").dropFirst().first, "no '## \(heading)' section")
        let fenced = try XCTUnwrap(section.components(separatedBy: "```").dropFirst().first, "no code block under '## \(heading)'")
        // The fence's info string (`nginx`, `caddyfile`) is the rest of its line.
        let block = fenced.drop { $0 != "\n" }
        return block.replacingOccurrences(of: "/var/www", with: folder).replacingOccurrences(of: "app:8080", with: upstream)
    }

    private func site() throws -> (TemporaryFolder, FakeUpstream) {
        let folder = try TemporaryFolder()
        try folder.write(["errors/503.html": page, "maintenance.on": ""])
        chmod(folder.path, 0o755)
        return (folder, try FakeUpstream(.answers))
    }

    private func assertMaintenance(_ url: String, folder: TemporaryFolder, file: StaticString = #filePath, line: UInt = #line) throws {
        let during = try HTTPClient.get(url)
        XCTAssertEqual(during.status, 503, file: file, line: line)
        XCTAssertEqual(during.headers["retry-after"], "3600", file: file, line: line)
        XCTAssertEqual(during.headers["cache-control"], "no-store", file: file, line: line)
        XCTAssertEqual(during.body, page, file: file, line: line)
        try FileManager.default.removeItem(atPath: folder.path + "/maintenance.on")
        let after = try HTTPClient.get(url)
        XCTAssertEqual(after.status, 200, "removing the flag file ends maintenance without a reload", file: file, line: line)
        XCTAssertEqual(after.body, "ok", file: file, line: line)
    }

    func testTheNginxConfiguration() throws {
        let (folder, upstream) = try site()
        defer {
            folder.remove()
            upstream.stop()
        }
        let port = LoopbackPort.free()
        let locations = try snippet(under: "nginx", folder: folder.path, upstream: "127.0.0.1:\(upstream.port)")
        let nginx = try NginxServer(config: NginxServer.httpBlock("server { listen 127.0.0.1:\(port); \(locations) }"))
        defer { nginx.stop() }
        XCTAssertTrue(LoopbackPort.waitUntilOpen(port), nginx.errorLog)
        try assertMaintenance("http://127.0.0.1:\(port)/account", folder: folder)
    }

    func testTheCaddyConfiguration() throws {
        let (folder, upstream) = try site()
        defer {
            folder.remove()
            upstream.stop()
        }
        let port = LoopbackPort.free()
        let routes = try snippet(under: "Caddy", folder: folder.path, upstream: "127.0.0.1:\(upstream.port)")
        try folder.write(["Caddyfile": "{\n\tadmin off\n\tauto_https off\n}\nhttp://127.0.0.1:\(port) {\n\(routes)\n}\n"])
        let caddy = try ServerProcess(
            "caddy", ["run", "--config", folder.path + "/Caddyfile", "--adapter", "caddyfile"],
            environment: ["HOME": folder.path, "XDG_DATA_HOME": folder.path, "XDG_CONFIG_HOME": folder.path],
            log: folder.url.appendingPathComponent("caddy.log"))
        defer { caddy.stop() }
        XCTAssertTrue(LoopbackPort.waitUntilOpen(port), caddy.log)
        try assertMaintenance("http://127.0.0.1:\(port)/account", folder: folder)
    }
}
