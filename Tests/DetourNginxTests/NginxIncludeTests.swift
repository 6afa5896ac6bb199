import DetourDiagnostics
import DetourTestSupport
import Foundation
import XCTest

@testable import DetourNginx

final class NginxIncludeTests: XCTestCase {
    private func load(_ files: [String: String], main: String = "deploy/nginx.conf") throws -> (NginxConfigLoader.Result, TemporaryFolder) {
        let folder = try TemporaryFolder(files: files)
        let url = folder.url.appendingPathComponent(main)
        return (NginxConfigLoader(main: url, displayPath: main).load(), folder)
    }

    func testIncludesAreSplicedInPlaceRelativeToTheMainFile() throws {
        let (result, folder) = try load([
            "deploy/nginx.conf": "http {\n  include sites/*.conf;\n  include snippets/errors.conf;\n}\n",
            "deploy/sites/b.conf": "server { listen 81; }\n",
            "deploy/sites/a.conf": "server { listen 80; }\n",
            "deploy/snippets/errors.conf": "error_page 502 /errors/502.html;\n",
        ])
        defer { folder.remove() }
        XCTAssertEqual(result.diagnostics, [])
        let http = try XCTUnwrap(result.directives.first?.block)
        XCTAssertEqual(http.map(\.name), ["server", "server", "error_page"])
        XCTAssertEqual(http[0].block?[0].values, ["80"], "glob matches are read in sorted order")
        XCTAssertEqual(http[0].location, SourceLocation(path: "deploy/sites/a.conf", line: 1, column: 1))
        XCTAssertEqual(http[2].location.path, "deploy/snippets/errors.conf")
        XCTAssertEqual(result.files, ["deploy/nginx.conf", "deploy/sites/a.conf", "deploy/sites/b.conf", "deploy/snippets/errors.conf"])
    }

    /// A site's file, included from the nginx.conf two folders up, names its includes from
    /// that file's folder, as nginx reads them (`nginx -t` on that nginx.conf finds the snippet);
    /// a site's file with no nginx.conf above it keeps its own folder.
    func testASitesFileIncludesFromTheFolderOfTheNginxConfAboveIt() throws {
        let site = "server {\n    listen 127.0.0.1:8080;\n    location / {\n        include snippets/proxy.conf;\n    }\n}\n"
        let folder = try TemporaryFolder(files: [
            "etc/nginx/nginx.conf": "events {}\nhttp {\n    include sites-enabled/*;\n}\n",
            "etc/nginx/sites-enabled/app": site,
            "etc/nginx/snippets/proxy.conf": "proxy_pass http://127.0.0.1:9000;\n",
            "project/app.conf": site,
        ])
        defer { folder.remove() }
        let prefix = folder.path + "/etc/nginx/"
        let verdict = try ProcessRunner.run(
            try RequiredTool.find("nginx"),
            ["-t", "-p", prefix, "-c", prefix + "nginx.conf", "-e", folder.path + "/error.log", "-g", "pid \(folder.path)/nginx.pid;"])
        XCTAssertEqual(verdict.status, 0, verdict.stderr)
        let enabled = NginxConfigLoader(main: folder.url.appendingPathComponent("etc/nginx/sites-enabled/app"), displayPath: "sites-enabled/app").load()
        XCTAssertEqual(enabled.diagnostics, [])
        XCTAssertEqual(enabled.files, ["sites-enabled/app", "snippets/proxy.conf"])
        let alone = NginxConfigLoader(main: folder.url.appendingPathComponent("project/app.conf"), displayPath: "project/app.conf").load()
        XCTAssertEqual(alone.diagnostics.map(\.message), ["cannot open 'project/snippets/proxy.conf': no such file"])
    }

    func testGlobMatchingNothingIsFineButAMissingFileIsNot() throws {
        let (result, folder) = try load(["deploy/nginx.conf": "include conf.d/*.conf;\ninclude missing.conf;\n"])
        defer { folder.remove() }
        XCTAssertEqual(
            DiagnosticFormat.text.render(result.diagnostics, toolVersion: "t"),
            "deploy/nginx.conf:2:1: error: [nginx.include-missing] cannot open 'deploy/missing.conf': no such file\n1 error, 0 warnings\n")
    }

    func testIncludeCyclesAreReportedNotFollowed() throws {
        let (result, folder) = try load([
            "deploy/nginx.conf": "include a.conf;\n",
            "deploy/a.conf": "include b.conf;\n",
            "deploy/b.conf": "include a.conf;\n",
        ])
        defer { folder.remove() }
        XCTAssertEqual(result.diagnostics.map(\.rule), ["nginx.include-cycle"])
        XCTAssertEqual(result.diagnostics.first?.location, SourceLocation(path: "deploy/b.conf", line: 1, column: 1))
    }

    /// `conf.d/*.conf` included again from inside each of its files: followed naively, every
    /// ordering of the files is a chain (9! of them). nginx itself crashes on it. Each include
    /// that closes a cycle is reported once, and the files are each read in once per level.
    func testAGlobIncludedFromEachOfItsFilesIsReportedOncePerInclude() throws {
        var files = ["deploy/nginx.conf": "events {}\nhttp {\n    include conf.d/*.conf;\n}\n"]
        for number in 1...9 {
            files["deploy/conf.d/s\(number).conf"] = "include conf.d/*.conf;\nserver { listen 127.0.0.1:80\(number); }\n"
        }
        let (result, folder) = try load(files)
        defer { folder.remove() }
        XCTAssertEqual(result.diagnostics.map(\.rule), Array(repeating: "nginx.include-cycle", count: 9))
        XCTAssertEqual(Set(result.diagnostics.map(\.location)).count, 9, "one report per include line")
        XCTAssertEqual(result.diagnostics.first?.location, SourceLocation(path: "deploy/conf.d/s1.conf", line: 1, column: 1))
        for diagnostic in result.diagnostics {
            XCTAssertTrue(diagnostic.message.hasPrefix("'\(diagnostic.location.path)' includes itself"), "each file's own cycle: \(diagnostic.message)")
        }
        XCTAssertLessThan(result.config.entryCount, 1_000, "the expansion stays linear in the number of files")
    }

    func testIncludesThatMultiplyStopAtTheDirectiveLimit() throws {
        // Each level includes the next twice: 2^14 copies of a 1,000-line file.
        var files = ["deploy/leaf.conf": String(repeating: "worker_processes 1;\n", count: 1000)]
        for level in 0..<14 {
            let next = level == 13 ? "leaf.conf" : "level\(level + 1).conf"
            files[level == 0 ? "deploy/nginx.conf" : "deploy/level\(level).conf"] = "include \(next);\ninclude \(next);\n"
        }
        let (result, folder) = try load(files)
        defer { folder.remove() }
        XCTAssertEqual(result.diagnostics.map(\.rule), ["nginx.include-size"])
        XCTAssertEqual(result.diagnostics.first?.location.path, "deploy/level13.conf")
        XCTAssertEqual(result.config.entryCount, NginxConfigLoader.maximumDirectives)
    }

    func testSyntaxErrorsInIncludedFilesAreLocatedThere() throws {
        let (result, folder) = try load(["deploy/nginx.conf": "http { include site.conf; }\n", "deploy/site.conf": "server {\n  listen 80\n}\n"])
        defer { folder.remove() }
        XCTAssertEqual(result.diagnostics.first?.location, SourceLocation(path: "deploy/site.conf", line: 3, column: 1))
    }
}
