import DetourDiagnostics
import DetourProxyCore
import DetourTestSupport
import Foundation
import XCTest

@testable import DetourHAProxy

/// A `lua-load` whose script is not there: HAProxy refuses its line and every line that uses
/// what the script would register (an action, a service), and stops at the first such HTTP
/// rule; with the script there, none of them. check refuses the same lines, as `haproxy -c`
/// (run in the configuration's folder, which relative paths start from) refuses them.
final class HAProxyLuaScriptTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
    }

    override func tearDown() {
        folder.remove()
    }

    private static let config = """
        global
            lua-load scripts/teapot.lua
        defaults
            mode http
            timeout connect 1s
            timeout client 1s
            timeout server 1s
        frontend web
            bind 127.0.0.1:1
            tcp-request content lua.teapot-action
            http-request use-service lua.teapot if { path /teapot }
            http-request lua.teapot-action
            http-request set-header X-After %[lua.teapot-fetch]
            default_backend app
        backend app
            server s1 127.0.0.1:9

        """

    private static let script = """
        core.register_service("teapot", "http", function(applet)
            applet:set_status(418)
            applet:start_response()
        end)
        core.register_action("teapot-action", { "tcp-req", "http-req" }, function(txn) end)
        core.register_fetches("teapot-fetch", function(txn) return "tea" end)

        """

    private func checkRefusals() -> [Int] {
        HAProxyChecker.check(
            .init(main: folder.url.appendingPathComponent("haproxy.cfg"), mainDisplay: "haproxy.cfg", pages: nil, maps: [], serverVersion: "2.6"),
            environment: [:]
        ).diagnostics.filter { $0.rule == HAProxyRules.syntax.id }.map(\.location.line).sorted()
    }

    private func haproxyRefusals() throws -> [Int] {
        let haproxy = try RequiredTool.find("haproxy")
        let verdict = try ProcessRunner.run(haproxy, ["-c", "-f", "haproxy.cfg"], in: folder.url)
        let pattern = try NSRegularExpression(pattern: #"\[ALERT\].*haproxy\.cfg:(\d+)\]"#)
        let output = verdict.stdout + verdict.stderr
        return Set(
            pattern.matches(in: output, range: NSRange(output.startIndex..., in: output)).compactMap { match in
                Range(match.range(at: 1), in: output).flatMap { Int(output[$0]) }
            }
        ).sorted()
    }

    func testAMissingScriptAndWhatItWouldRegisterAreRefusedAsHAProxyRefusesThem() throws {
        try folder.write(["haproxy.cfg": Self.config])
        let refused = try haproxyRefusals()
        // The script's line, the tcp rule's action, then the first HTTP rule: HAProxy stops there.
        XCTAssertEqual(refused, [2, 10, 11])
        XCTAssertEqual(checkRefusals(), refused)
    }

    func testAScriptThatIsThereRegistersWhatTheLinesUse() throws {
        try folder.write(["haproxy.cfg": Self.config, "scripts/teapot.lua": Self.script])
        XCTAssertEqual(try haproxyRefusals(), [])
        XCTAssertEqual(checkRefusals(), [])
    }

    func testALuaFetchWithNoScriptLoadedIsRefused() throws {
        let config = Self.config.replacingOccurrences(of: "    lua-load scripts/teapot.lua\n", with: "    maxconn 100\n")
            .replacingOccurrences(of: "    tcp-request content lua.teapot-action\n", with: "")
            .replacingOccurrences(of: "    http-request use-service lua.teapot if { path /teapot }\n", with: "")
            .replacingOccurrences(of: "    http-request lua.teapot-action\n", with: "")
        try folder.write(["haproxy.cfg": config])
        let refused = try haproxyRefusals()
        XCTAssertEqual(refused, [10])
        XCTAssertEqual(checkRefusals(), refused)
    }
}
