import DetourTestSupport
import Foundation
import XCTest

/// `detour diagnose` on lines the real servers wrote: each leads to the shipped article that
/// explains it.
final class DiagnoseCommandTests: XCTestCase {
    private var scratch: TemporaryFolder!

    override func setUpWithError() throws {
        scratch = try TemporaryFolder()
    }

    override func tearDown() {
        scratch.remove()
    }

    /// nginx's and Caddy's error lines for an upstream nobody listens on, at port `dead`.
    private func deadUpstreamLines(_ dead: Int) throws -> String {
        let nginxPort = LoopbackPort.free()
        let nginx = try NginxServer(
            config: NginxServer.httpBlock("server { listen 127.0.0.1:\(nginxPort); location / { proxy_pass http://127.0.0.1:\(dead); } }"))
        defer { nginx.stop() }
        XCTAssertTrue(LoopbackPort.waitUntilOpen(nginxPort), nginx.errorLog)
        XCTAssertEqual(try HTTPClient.get("http://127.0.0.1:\(nginxPort)/").status, 502)
        let nginxLines = nginx.errorLog

        let caddyPort = LoopbackPort.free()
        try scratch.write(["Caddyfile": "{\n\tadmin off\n\tauto_https off\n}\nhttp://127.0.0.1:\(caddyPort) {\n\treverse_proxy 127.0.0.1:\(dead)\n}\n"])
        let caddy = try ServerProcess(
            "caddy", ["run", "--config", scratch.path + "/Caddyfile", "--adapter", "caddyfile"],
            environment: ["HOME": scratch.path, "XDG_DATA_HOME": scratch.path, "XDG_CONFIG_HOME": scratch.path],
            log: scratch.url.appendingPathComponent("caddy.log"))
        XCTAssertTrue(LoopbackPort.waitUntilOpen(caddyPort), caddy.log)
        XCTAssertEqual(try HTTPClient.get("http://127.0.0.1:\(caddyPort)/").status, 502)
        caddy.stop()
        return nginxLines + caddy.log
    }

    func testARefusedUpstreamInNginxAndCaddyLogsLeadsToItsArticle() throws {
        let dead = LoopbackPort.free()
        try scratch.write(["error.log": try deadUpstreamLines(dead)])
        let result = try ProcessRunner.detour(["diagnose", "error.log", "--content", Repository.content.path, "--format", "json"], in: scratch.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        let report = try JSONDecoder().decode(DiagnoseReport.self, from: Data(result.stdout.utf8))
        let cause = try XCTUnwrap(report.causes.first, result.stdout)
        XCTAssertEqual(cause.slug, "upstream-connection-refused")
        XCTAssertEqual(cause.url, "https://help.example.com/articles/upstream-connection-refused/")
        XCTAssertTrue(cause.statuses.contains(502))
        XCTAssertEqual(cause.count, 2, result.stdout)
        XCTAssertEqual(cause.incidents, 2, "one request to each server")
        XCTAssertEqual(Set(cause.upstreams.map(\.upstream)), ["http://127.0.0.1:\(dead)", "127.0.0.1:\(dead)"], "as nginx and Caddy name it")
        XCTAssertEqual(cause.loggedStatuses.map { [$0.status, $0.count] }, [[502, 1]], "Caddy's line says its visitor got 502; nginx's error line says none")
        XCTAssertTrue(cause.lines.contains { $0.contains("connect() failed (111: Connection refused) while connecting to upstream") }, "nginx's line")
        XCTAssertTrue(cause.lines.contains { $0.contains("\"logger\":\"http.log.error\"") && $0.contains("connection refused") }, "Caddy's line")
        // Caddy's start-up lines are counted as routine, and explained by nothing.
        XCTAssertEqual(report.routine.count, report.lines - 2, result.stdout)
        XCTAssertEqual(report.unexplained.count, 0, result.stdout)
        let text = try ProcessRunner.detour(["diagnose", "error.log", "--content", Repository.content.path], in: scratch.url)
        XCTAssertTrue(
            text.stdout.contains(
                "\n\(report.lines - 2) routine lines: servers starting, stopping, reading their configuration, requests answered\n0 lines no article explains\n"
            ),
            text.stdout)
        XCTAssertTrue(text.stdout.contains("\n  confirm: \(try XCTUnwrap(cause.confirm))\n"), text.stdout)
    }

    /// The command the answer gives, run as the operator would, says what the article says: the
    /// upstream the lines name refuses connections, and stops saying so once something listens.
    func testTheConfirmingCommandShowsTheRefusalAndItsEnd() throws {
        let dead = LoopbackPort.free()
        try scratch.write(["error.log": try deadUpstreamLines(dead)])
        let result = try ProcessRunner.detour(["diagnose", "error.log", "--content", Repository.content.path, "--format", "json"], in: scratch.url)
        let cause = try XCTUnwrap(try JSONDecoder().decode(DiagnoseReport.self, from: Data(result.stdout.utf8)).causes.first, result.stdout)
        let command = try XCTUnwrap(cause.confirm, result.stdout)
        XCTAssertTrue(command.contains("127.0.0.1:\(dead)"), "the upstream the lines name: \(command)")
        let refused = try ProcessRunner.run(URL(fileURLWithPath: "/bin/sh"), ["-c", command], in: scratch.url)
        XCTAssertNotEqual(refused.status, 0, command)
        XCTAssertTrue(refused.stderr.contains("Couldn't connect to server") || refused.stderr.contains("Connection refused"), refused.stderr)

        // The same command for an upstream that answers, as the article's fix leaves it.
        let live = try FakeUpstream(.answers)
        defer { live.stop() }
        let answered = try ProcessRunner.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", command.replacingOccurrences(of: "127.0.0.1:\(dead)", with: "127.0.0.1:\(live.port)")], in: scratch.url)
        XCTAssertEqual(answered.status, 0, answered.stderr)
    }

    /// The README's example, real lines of six servers from public threads, is what diagnose says.
    func testTheReadmesMixedLogIsDiagnosedAsItShows() throws {
        let readme = try String(contentsOf: Repository.root.appendingPathComponent("README.md"), encoding: .utf8)
        let command = "$ detour diagnose Tests/RealLogs/mixed.log\n"
        let start = try XCTUnwrap(readme.range(of: command), "the README shows the command").upperBound
        let shown = try XCTUnwrap(readme[start...].range(of: "```\n")).lowerBound
        let result = try ProcessRunner.detour(["diagnose", "Tests/RealLogs/mixed.log"], in: Repository.root)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, String(readme[start..<shown]))
    }

    /// An answer without a next step leaves the operator where the log did.
    func testEveryShippedArticleThatExplainsLinesSaysHowToConfirmIt() throws {
        let articles = try XCTUnwrap(FileManager.default.enumerator(atPath: Repository.content.path + "/articles")).compactMap { $0 as? String }
        var explaining = 0
        for path in articles where path.hasSuffix(".md") {
            let text = try String(contentsOfFile: Repository.content.path + "/articles/" + path, encoding: .utf8)
            let frontMatter = text.components(separatedBy: "\n---\n").first ?? ""
            guard frontMatter.contains("\nlog_patterns:") else { continue }
            explaining += 1
            XCTAssertTrue(frontMatter.contains("\nconfirm:"), "\(path) explains log lines but gives no command to confirm it")
        }
        XCTAssertGreaterThan(explaining, 20)
    }

    func testStandardInputTextAndAFileThatCannotBeRead() throws {
        let line = "2026/11/22 23:07:10 [error] 7#7: *1 upstream sent too big header while reading response header from upstream, client: 10.0.0.1\n"
        let piped = try ProcessRunner.detour(["diagnose", "--content", Repository.content.path], in: scratch.url, input: Data(line.utf8))
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertTrue(piped.stdout.hasPrefix("1 line read; 1 cause found\n"), piped.stdout)
        XCTAssertTrue(piped.stdout.contains("https://help.example.com/articles/upstream-header-too-big/"), piped.stdout)
        XCTAssertTrue(piped.stdout.contains("first 2026/11/22 23:07:10, last 2026/11/22 23:07:10"), piped.stdout)

        try scratch.write(["one.log": line])
        let missing = try ProcessRunner.detour(["diagnose", "gone.log", "one.log", "--content", Repository.content.path], in: scratch.url)
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stderr, "detour diagnose: gone.log: cannot open: No such file or directory\n")
        XCTAssertTrue(missing.stdout.hasPrefix("1 line read; 1 cause found\n"), "the readable file is still diagnosed: \(missing.stdout)")
        XCTAssertEqual(try ProcessRunner.detour(["diagnose", "one.log", "--shapes=-1"], in: scratch.url).status, 64)
    }

    /// Whether process `pid` catches SIGINT (its `SigCgt` mask in /proc), waiting up to 20 s.
    private static func waitUntilCatchingInterrupt(_ pid: Int32) -> Bool {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("SigCgt:") }
            let caught = line.flatMap { UInt64($0.dropFirst(7).trimmingCharacters(in: .whitespaces), radix: 16) }
            if let caught, caught & (1 << (UInt64(SIGINT) - 1)) != 0 { return true }
            usleep(20_000)
        }
        return false
    }

    func testFollowReadsWhatIsAppendedUntilCtrlC() throws {
        try scratch.write(["growing.log": ""])
        let process = Process()
        process.executableURL = Repository.detourExecutable
        process.arguments = ["diagnose", "--follow", "growing.log", "--content", Repository.content.path]
        process.currentDirectoryURL = scratch.url
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        // A machine under load may take longer than any fixed pause to load the content.
        XCTAssertTrue(Self.waitUntilCatchingInterrupt(process.processIdentifier), "diagnose --follow never set its Ctrl-C handler")
        let log = try FileHandle(forWritingTo: scratch.url.appendingPathComponent("growing.log"))
        log.write(Data("2026/11/22 23:07:10 [error] 7#7: *1 upstream sent too big header while reading response header from upstream\n".utf8))
        try log.close()
        Thread.sleep(forTimeInterval: 0.6)
        XCTAssertTrue(process.isRunning, "--follow keeps reading")
        kill(process.processIdentifier, SIGINT)
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertTrue(printed.hasPrefix("1 line read; 1 cause found\n"), printed)
    }
}
