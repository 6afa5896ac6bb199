import DetourTestSupport
import Foundation
import XCTest

@testable import DetourCaddy

/// The global and `servers` options detour takes for Caddy 2.6's are those the installed
/// `caddy adapt` knows, and options of later versions (listed by
/// scripts/caddy-options/derive.sh from v2.10.0) are refused by both, at the same line.
final class CaddyGlobalOptionsTests: XCTestCase {
    private func adapt(_ caddyfile: String) throws -> (caddy: ProcessResult, detour: [String]) {
        let folder = try TemporaryFolder(files: ["Caddyfile": caddyfile])
        defer { folder.remove() }
        let config = CaddyConfig.load(
            main: folder.url.appendingPathComponent("Caddyfile"), displayPath: "Caddyfile", version: CaddyVersionSource(.debian))
        let found = (config.diagnostics + CaddyGlobalOptions.check(config)).map { "\($0.location.line): \($0.message)" }
        return (try CaddyAdapt.run("Caddyfile", in: folder.url), found)
    }

    func testEveryKnownOptionIsCaddysOwn() throws {
        for name in CaddyGlobalOptions.known.sorted() {
            let result = try adapt("{\n\t\(name)\n}\n:8080 {\n\trespond hi\n}\n")
            XCTAssertFalse(result.caddy.stderr.contains("unrecognized global option"), "\(name): \(result.caddy.stderr.suffix(300))")
            XCTAssertEqual(result.detour, [], name)
        }
        for name in CaddyGlobalOptions.serversOptions.sorted() {
            let result = try adapt("{\n\tservers {\n\t\t\(name)\n\t}\n}\n:8080 {\n\trespond hi\n}\n")
            XCTAssertFalse(result.caddy.stderr.contains("unrecognized servers option"), "\(name): \(result.caddy.stderr.suffix(300))")
            XCTAssertEqual(result.detour, [], name)
        }
    }

    /// A plugin's directive put in order where the plugin is not built in: Caddy stops at the
    /// `order` line; a standard directive's order passes.
    func testAnOrderForADirectiveCaddyLacksIsRefusedByBoth() throws {
        let plugin = try adapt("{\n\torder starlark before file_server\n}\n:8080 {\n\trespond hi\n}\n")
        XCTAssertTrue(plugin.caddy.stderr.contains("Caddyfile:2 - Error during parsing: starlark is not a registered directive"), plugin.caddy.stderr)
        XCTAssertEqual(plugin.detour, ["2: parsing caddyfile tokens for 'order': starlark is not a registered directive"])
        let standard = try adapt("{\n\torder respond before file_server\n}\n:8080 {\n\trespond hi\n}\n")
        XCTAssertEqual(standard.caddy.status, 0, standard.caddy.stderr)
        XCTAssertEqual(standard.detour, [])
    }

    func testLaterOptionsAreRefusedByBoth() throws {
        for name in ["cert_lifetime", "dns", "ech", "fallback_sni", "filesystem", "metrics", "persist_config", "storage_check"] {
            let result = try adapt("{\n\tadmin off\n\t\(name) x\n}\n:8080 {\n\trespond hi\n}\n")
            XCTAssertTrue(result.caddy.stderr.contains("Caddyfile:3: unrecognized global option: \(name)"), "\(name): \(result.caddy.stderr.suffix(300))")
            XCTAssertEqual(result.detour, ["3: unrecognized global option: \(name)"], name)
        }
        for name in ["trusted_proxies", "client_ip_headers", "trusted_proxies_strict", "enable_full_duplex", "trace", "0rtt"] {
            let result = try adapt("{\n\tservers {\n\t\tprotocols h1\n\t\t\(name) x\n\t}\n}\n:8080 {\n\trespond hi\n}\n")
            XCTAssertTrue(
                result.caddy.stderr.contains("Caddyfile:4 - Error during parsing: unrecognized servers option '\(name)'"),
                "\(name): \(result.caddy.stderr.suffix(300))")
            XCTAssertEqual(result.detour, ["4: parsing caddyfile tokens for 'servers': Error during parsing: unrecognized servers option '\(name)'"], name)
        }
    }
}
