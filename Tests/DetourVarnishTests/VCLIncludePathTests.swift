import DetourTestSupport
import Foundation
import XCTest

@testable import DetourVarnish

/// Where a relative `include "x.vcl";` is found. varnishd looks in its `vcl_path`, by default
/// /etc/varnish first, where the main VCL is installed with its includes beside it: detour
/// checks a VCL as installed so, the main file's folder first, and the real varnishd, given
/// that folder as its `vcl_path`, agrees on both the file found and the file missing.
final class VCLIncludePathTests: XCTestCase {
    private let main = "vcl 4.1;\ninclude \"backend.vcl\";\nsub vcl_recv { return (hash); }\n"
    private let backend = "backend default { .host = \"127.0.0.1\"; .port = \"8000\"; }\n"

    private func verdicts(_ files: [String: String]) throws -> (varnishd: String?, detour: String?) {
        let varnishd = try RequiredTool.find("varnishd")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(files)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        let file = folder.url.appendingPathComponent("default.vcl")
        let real = try ProcessRunner.run(
            varnishd, ["-C", "-f", file.path, "-n", folder.path + "/work", "-p", "vcl_path=\(folder.path):/etc/varnish:/usr/share/varnish/vcl"])
        let ours = VarnishChecker.check(.init(main: file, mainDisplay: "default.vcl", pages: nil, maps: [])).diagnostics.first {
            $0.rule == VarnishRules.syntax.id
        }
        let refusal = real.stderr.split(separator: "\n").first { $0.contains("Cannot read file") }.map(String.init)
        return (real.status == 0 ? nil : refusal ?? real.stderr, ours.map { "\($0.location.line): \($0.message)" })
    }

    func testAnIncludeBesideTheMainFileIsFound() throws {
        let found = try verdicts(["default.vcl": main, "backend.vcl": backend])
        XCTAssertNil(found.varnishd)
        XCTAssertNil(found.detour, "backend.vcl is beside default.vcl, where varnishd finds it once installed")
    }

    func testAnIncludeNowhereOnThePathIsRefusedInVarnishdsWords() throws {
        let missing = try verdicts(["default.vcl": main, "conf/backend.vcl": backend])
        XCTAssertEqual(missing.varnishd?.contains("Cannot read file 'backend.vcl'"), true, missing.varnishd ?? "accepted")
        XCTAssertEqual(missing.detour, "2: Cannot read file 'backend.vcl' (No such file or directory)")
    }
}
