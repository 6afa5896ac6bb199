import DetourDiagnostics
import DetourProxyCore
import DetourTestSupport
import Foundation
import XCTest

@testable import DetourCaddy

/// Whatever bytes a Caddyfile holds, reading it ends with blocks or a located error.
final class CaddyBadInputTests: XCTestCase {
    private func read(_ bytes: [UInt8]) throws -> (CaddyConfig, [Diagnostic]) {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.writeData("Caddyfile", Data(bytes))
        let config = CaddyConfig.load(main: folder.url.appendingPathComponent("Caddyfile"), displayPath: "Caddyfile")
        return (config, config.diagnostics + CaddyDirectiveCheck.check(config))
    }

    func testRandomBytesAndMangledCaddyfilesEndWithALocatedResult() throws {
        var generator = SplitMix64(state: 2026)
        let pieces =
            Array("example.com { } ( ) \" ` \\ # \n \t import snip {args.0} {$X} route handle_errors respond file_server @m".split(separator: " ")).map(
                String.init) + [" ", "\n", "{", "}"]
        for round in 0..<300 {
            let bytes: [UInt8]
            if round % 2 == 0 {
                bytes = (0..<Int(generator.next() % 400)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            } else {
                bytes = Array(
                    (0..<Int(generator.next() % 80)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] + (generator.next() % 3 == 0 ? " " : "") }
                        .joined().utf8)
            }
            let (_, diagnostics) = try read(bytes)
            for diagnostic in diagnostics {
                XCTAssertEqual(diagnostic.location.path, "Caddyfile", "round \(round)")
                XCTAssertGreaterThan(diagnostic.location.line, 0, "round \(round)")
            }
        }
    }

    func testDeepNestingIsReadWithoutRecursion() throws {
        let depth = 100_000
        let text = "example.com {\n" + String(repeating: "route {\n", count: depth) + "respond hi\n" + String(repeating: "}\n", count: depth) + "}\n"
        let (config, diagnostics) = try read(Array(text.utf8))
        XCTAssertEqual(config.blocks.count, 1)
        XCTAssertEqual(diagnostics.map(\.message), ["routes nest more than 64 deep here; detour does not check deeper"])
        let (_, unclosed) = try read(Array(("example.com {\n" + String(repeating: "route {\n", count: depth)).utf8))
        XCTAssertEqual(unclosed.first?.message, "Unexpected EOF")
    }

    func testAnErrorAfterThousandsOfSitesIsAllThatIsReported() throws {
        // Sites are checked while the rest is read; a later error makes them a guess, as Caddy
        // stops there, so none of their findings may come out.
        let sites = (0..<2000).map { "site\($0).test {\n\treverse_proxy 127.0.0.1:9000\n\thandle_errors {\n\t\tbasicauth {\n\t\t}\n\t}\n}\n" }.joined()
        let folder = try TemporaryFolder(files: ["Caddyfile": sites + "broken.test {\n\trespond {\n"])
        defer { folder.remove() }
        let report = CaddyChecker.check(
            .init(main: folder.url.appendingPathComponent("Caddyfile"), mainDisplay: "Caddyfile", pages: nil, maps: []), version: CaddyVersionSource(.debian))
        XCTAssertEqual(report.diagnostics.map(\.message), ["Unexpected EOF"])
        XCTAssertEqual(report.coverage.count, 0)
        XCTAssertEqual(report.files, ["Caddyfile"])
    }

    func testASnippetThatImportsItselfIsACycle() throws {
        let (_, diagnostics) = try read(Array("(a) {\n\timport a\n}\nexample.com {\n\timport a\n}\n".utf8))
        XCTAssertTrue(diagnostics.first?.message.hasPrefix("a cycle of imports exists between") == true, "\(diagnostics.map(\.message))")
    }

    func testImportingNothingLeavesNothingToRead() throws {
        let folder = try TemporaryFolder(files: ["Caddyfile": "import empty.caddy\n", "empty.caddy": "# nothing\n", "comma": "a.com, import empty.caddy\n"])
        defer { folder.remove() }
        let empty = CaddyConfig.load(main: folder.url.appendingPathComponent("Caddyfile"), displayPath: "Caddyfile")
        XCTAssertEqual(empty.diagnostics, [])
        XCTAssertEqual(empty.blocks.count, 0)
        let comma = CaddyConfig.load(main: folder.url.appendingPathComponent("comma"), displayPath: "comma")
        XCTAssertEqual(comma.blocks.first?.keys.map(\.text), ["a.com", "import", "empty.caddy"], "on an address line, import is an address")
    }

    func testAGigabyteFileIsReportedNotRead() throws {
        let folder = try TemporaryFolder(files: ["Caddyfile": "example.com {\n\timport huge.caddy\n}\n"])
        defer { folder.remove() }
        for name in ["huge.caddy", "huge-main"] {
            let handle = try XCTUnwrap(
                FileHandle(
                    forWritingAtPath: {
                        FileManager.default.createFile(atPath: folder.path + "/" + name, contents: nil)
                        return folder.path + "/" + name
                    }()))
            try handle.truncate(atOffset: 1 << 30)
            try handle.close()
        }
        let imported = CaddyConfig.load(main: folder.url.appendingPathComponent("Caddyfile"), displayPath: "Caddyfile")
        XCTAssertEqual(
            imported.diagnostics.map { "\($0.location.line):\($0.location.column): \($0.message)" },
            ["2:9: Could not import \(folder.url.standardizedFileURL.path)/huge.caddy: it is larger than 256 MiB, more than detour reads in a Caddyfile"])
        let main = CaddyConfig.load(main: folder.url.appendingPathComponent("huge-main"), displayPath: "huge-main")
        XCTAssertEqual(main.diagnostics.map(\.message), ["cannot open 'huge-main': it is larger than 256 MiB, more than detour reads in a Caddyfile"])
    }
}
