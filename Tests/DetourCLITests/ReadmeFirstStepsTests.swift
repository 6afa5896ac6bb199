import DetourTestSupport
import Foundation
import XCTest

/// The README's "first ten minutes", run as written in an empty folder with the built `detour`
/// on PATH: each line is a step that must succeed, in one shell as a reader types them; the last,
/// `detour serve`, runs until stopped, so it is started on a free port, asked for the site and
/// stopped by its PID.
final class ReadmeFirstStepsTests: XCTestCase {
    func testTheFirstTenMinutesRunAsWritten() throws {
        let readme = try String(contentsOf: Repository.root.appendingPathComponent("README.md"), encoding: .utf8)
        let steps = try XCTUnwrap(Self.shellBlock(after: "### The first ten minutes", in: readme), "the README has the section and its sh block")
        for command in ["detour init", "detour build", "detour snippet", "detour check", "detour diagnose", "detour serve"] {
            XCTAssertTrue(steps.contains { $0.contains(command) }, "the first steps include \(command)")
        }
        let serve = try XCTUnwrap(steps.last, "steps")
        XCTAssertTrue(serve.hasPrefix("detour serve"), "serve runs until stopped, so it comes last")

        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var script = "set -eo pipefail\n"
        for (number, step) in steps.dropLast().enumerated() { script += "echo \"step \(number + 1): \"\(Self.quoted(step)) >&2\n\(step)\n" }
        script += "pwd\n"
        let binaries = Repository.detourExecutable.deletingLastPathComponent().path
        let result = try ProcessRunner.run(
            URL(fileURLWithPath: "/bin/bash"), ["-c", script], in: folder.url, environment: ["PATH": binaries + ":/usr/bin:/bin", "HOME": folder.path])
        XCTAssertEqual(result.status, 0, "the step last named failed:\n\(result.stderr)\n\(result.stdout)")
        XCTAssertTrue(result.stdout.contains("1 server block in 1 file"), "check ends with its coverage table:\n\(result.stdout)")
        XCTAssertTrue(result.stdout.contains("/articles/application-not-answering/"), "diagnose names the starter's article:\n\(result.stdout)")
        XCTAssertFalse(result.stderr.contains("error:"), result.stderr)
        let project = URL(fileURLWithPath: try XCTUnwrap(result.stdout.split(separator: "\n").last.map(String.init)))

        // The serve line as written, on a free port in place of the default.
        let port = LoopbackPort.free()
        let words = serve.components(separatedBy: " #")[0].split(separator: " ").map(String.init)
        let server = try ServerProcess(
            executable: Repository.detourExecutable, Array(words.dropFirst()) + ["--port", String(port)], in: project,
            log: folder.url.appendingPathComponent("serve.log"))
        defer { server.stop() }
        XCTAssertTrue(LoopbackPort.waitUntilOpen(port, timeout: 60), server.log)
        let home = try HTTPClient.get("http://127.0.0.1:\(port)/")
        XCTAssertEqual(home.status, 200)
        XCTAssertTrue(home.body.contains("Example Hosting"), home.body)
        let page = try HTTPClient.get("http://127.0.0.1:\(port)/errors/502.html")
        XCTAssertEqual(page.status, 502, "an error page with its own status")
    }

    /// The lines of the first ```sh block after `heading`; nil without one.
    static func shellBlock(after heading: String, in text: String) -> [String]? {
        guard let section = text.range(of: "\n" + heading + "\n"), let open = text.range(of: "```sh\n", range: section.upperBound..<text.endIndex),
            let close = text.range(of: "\n```", range: open.upperBound..<text.endIndex)
        else { return nil }
        return text[open.upperBound..<close.lowerBound].split(separator: "\n").map(String.init)
    }

    /// `text` in single quotes for bash.
    private static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}
