import DetourTestSupport
import Foundation
import XCTest

@testable import DetourCaddy

/// The directives detour takes for Caddy's own are those the installed `caddy adapt` knows,
/// and Caddy 1's, which many Caddyfiles online still use, are refused by both.
final class CaddyDirectiveTests: XCTestCase {
    private func adapt(_ caddyfile: String) throws -> ProcessResult {
        let folder = try TemporaryFolder(files: ["Caddyfile": caddyfile])
        defer { folder.remove() }
        return try CaddyAdapt.run("Caddyfile", in: folder.url)
    }

    func testEveryKnownDirectiveIsCaddysOwn() throws {
        for name in CaddyDirectives.known.sorted() {
            let result = try adapt(":8080 {\n\t\(name)\n}\n")
            XCTAssertFalse(result.stderr.contains("unrecognized directive"), "\(name): \(result.stderr.suffix(300))")
        }
    }

    func testCaddyOnesDirectivesAreRefusedByBoth() throws {
        for name in ["proxy", "gzip", "errors", "ext", "fastcgi", "internal", "rewrite_all"] {
            let result = try adapt(":8080 {\n\t\(name) x\n}\n")
            XCTAssertTrue(result.stderr.contains("Caddyfile:2: unrecognized directive: \(name)"), "\(name): \(result.stderr.suffix(300))")
            XCTAssertFalse(CaddyDirectives.known.contains(name), name)
        }
    }
}
