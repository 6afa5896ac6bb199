import DetourDiagnostics
import DetourTestSupport
import Foundation
import XCTest

@testable import DetourCaddy

/// What a Caddyfile means depends on the Caddy that reads it: `--caddy-version` (or the
/// installed caddy) decides heredocs, `{args[N]}`, the directives and `handle_errors` codes.
final class CaddyVersionTests: XCTestCase {
    private func load(_ files: [String: String], _ version: String) throws -> CaddyConfig {
        let folder = try TemporaryFolder(files: files)
        defer { folder.remove() }
        return CaddyConfig.load(
            main: folder.url.appendingPathComponent("Caddyfile"), displayPath: "Caddyfile", version: CaddyVersionSource(CaddyVersion(version)))
    }

    private func findings(_ caddyfile: String, _ version: String) throws -> [String] {
        let config = try load(["Caddyfile": caddyfile], version)
        return (config.diagnostics + CaddyDirectiveCheck.check(config)).map { "\($0.location.line): \($0.message)" }
    }

    func testVersionsAreReadAsCaddyPrintsThem() {
        XCTAssertEqual(CaddyVersion("2.6.2 h1:wKoFIxpmOJLGl3QXoo6PNbYvGW4xLEgo32GPBEjWL8o=")?.description, "2.6")
        XCTAssertEqual(CaddyVersion("v2.8.4")?.description, "2.8")
        XCTAssertEqual(CaddyVersion("v2.9.0-beta.1")?.description, "2.9")
        XCTAssertNil(CaddyVersion("latest"))
        XCTAssertNil(CaddyVersion("2"))
    }

    func testTheInstalledCaddyIsAskedOnlyWhenItMatters() throws {
        let source = CaddyVersionSource()
        XCTAssertEqual(source.version, .debian, "Debian 12 ships Caddy 2.6; the differential tests rely on it")
        XCTAssertEqual(
            source.note.message, "read as Caddy 2.6: the installed caddy is 2.6; --caddy-version reads for another", "caddy is installed for the tests")
        XCTAssertEqual(CaddyVersionSource(CaddyVersion("2.8")).note.message, "read as Caddy 2.8: --caddy-version 2.8; --caddy-version reads for another")
    }

    func testBracketArgumentsAndVariadicsFrom27() throws {
        let text = "(page) {\n\trespond {args[0]} {args[1]}\n\theader X-Codes {args[1:]}\n}\nexample.com {\n\timport page gone 410 x y\n}\n"
        let new = try load(["Caddyfile": text], "2.7")
        XCTAssertEqual(new.blocks.last?.segments.map { $0.map(\.text) }, [["respond", "gone", "410"], ["header", "X-Codes", "410", "x", "y"]])
        let old = try load(["Caddyfile": text], "2.6")
        XCTAssertEqual(
            old.blocks.last?.segments.map { $0.map(\.text) }, [["respond", "{args[0]}", "{args[1]}"], ["header", "X-Codes", "{args[1:]}"]],
            "2.6 leaves them for runtime")
        let dotted = try load(["Caddyfile": "(p) {\n\trespond {args.0}\n}\na.com {\n\timport p hi\n}\n"], "2.9")
        XCTAssertEqual(dotted.blocks.last?.segments.first?.map(\.text), ["respond", "hi"], "{args.N} still works after 2.7")
    }

    func testHeredocsFrom27AndTheirErrorsAreLocated() throws {
        let text = "example.com {\n\trespond <<HTML\n\t\t<p>down</p>\n\t\tHTML 503\n\tfile_server\n}\n"
        let new = try load(["Caddyfile": text], "2.7")
        XCTAssertEqual(new.diagnostics, [])
        XCTAssertEqual(new.blocks.first?.segments.map { $0.map(\.text) }, [["respond", "<p>down</p>", "503"], ["file_server"]])
        XCTAssertEqual(try findings("example.com {\n\timport x.caddy\n}\n", "2.7"), ["2: File to import not found: x.caddy"])
        let imported = try load(["Caddyfile": "example.com {\n\timport page.caddy\n}\n", "page.caddy": "respond <<END\nno end\n"], "2.8")
        XCTAssertEqual(
            imported.diagnostics.map { "\($0.location.path):\($0.location.line): \($0.message)" },
            ["page.caddy:3: incomplete heredoc <<END on line #3, expected ending marker END"])
    }

    func testDirectivesAndHandleErrorsCodesFollowTheVersion() throws {
        XCTAssertEqual(try findings("a.com {\n\tbasic_auth {\n\t\tu x\n\t}\n}\n", "2.6").first?.hasPrefix("2: unrecognized directive: basic_auth"), true)
        XCTAssertEqual(try findings("a.com {\n\tbasic_auth {\n\t\tu x\n\t}\n\tinvoke x\n}\n", "2.8"), [])
        let codes = "a.com {\n\thandle_errors 404 5xx {\n\t\trespond oops\n\t}\n}\n"
        XCTAssertEqual(try findings(codes, "2.8"), [])
        XCTAssertEqual(try findings(codes, "2.6"), ["2: Wrong argument count or unexpected line ending after '404'"])
        XCTAssertEqual(try findings("a.com {\n\thandle_errors 50 {\n\t\trespond oops\n\t}\n}\n", "2.8"), ["2: bad status value '50'"])
        let config = try load(["Caddyfile": codes], "2.8")
        let site = CaddySite(config.blocks[0])
        XCTAssertEqual(site.errorRoutes.first?.codes, Set([404] + Array(500...599)))
    }
}
