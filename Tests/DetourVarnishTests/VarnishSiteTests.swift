import DetourProxyCore
import DetourTestSupport
import Foundation
import XCTest

@testable import DetourVarnish

/// Which codes Varnish raises for a VCL, and what answers them: decided on the ways through
/// the VCL, the built-in part only where the VCL's own falls through to it.
final class VarnishSiteTests: XCTestCase {
    private func coverage(_ vcl: String) throws -> [Int: String?] {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(["default.vcl": vcl, "errors/400.html": "400", "errors/405.html": "405", "errors/503.html": "503"])
        let report = VarnishChecker.check(
            .init(
                main: folder.url.appendingPathComponent("default.vcl"), mainDisplay: "default.vcl", pages: folder.url.appendingPathComponent("errors"), maps: []
            ))
        XCTAssertEqual(report.diagnostics.filter { $0.rule == "varnish.syntax" }, [])
        return Dictionary(uniqueKeysWithValues: try XCTUnwrap(report.coverage.first).answers.map { ($0.code, $0.answer) })
    }

    private let head = "vcl 4.1;\nbackend default { .host = \"127.0.0.1\"; .port = \"8000\"; }\n"

    /// A duration's unit written apart from its number (`120 s`, as WordPress VCLs have it):
    /// varnishd takes the name after a number as its unit, so the VCL is not refused.
    func testADurationsUnitMayStandApartFromItsNumber() throws {
        let answers = try coverage(head + "sub vcl_backend_response {\n    set beresp.ttl = 120 s;\n    set beresp.grace = 1 h;\n}\n")
        XCTAssertEqual(Set(answers.keys), [400, 405, 503])
    }

    /// The built-in vcl_recv refuses a request without Host (400) and PRI (405), unless the
    /// VCL's own vcl_recv returns first on every way.
    func testTheBuiltInSynthsCountOnlyWhereTheVCLFallsThrough() throws {
        let fallsThrough = try coverage(head + "sub vcl_recv { if (req.url ~ \"^/admin\") { return (pass); } }\n")
        XCTAssertEqual(Set(fallsThrough.keys), [400, 405, 503])
        let returns = try coverage(head + "sub vcl_recv { return (hash); }\n")
        XCTAssertEqual(Set(returns.keys), [503], "vcl_recv never reaches the built-in part")
    }

    /// A synth the VCL writes counts only as far as a way through the methods reaches it.
    func testASynthAfterAReturnIsNeverRaised() throws {
        let unreachable = try coverage(head + "sub vcl_recv { return (hash); }\nsub vcl_recv { return (synth(405)); }\n")
        XCTAssertFalse(unreachable.keys.contains(405))
        let reachable = try coverage(head + "sub vcl_recv { if (req.method == \"PRI\") { return (synth(405)); } return (hash); }\n")
        XCTAssertTrue(reachable.keys.contains(405))
        XCTAssertEqual(reachable[405], .some(nil), "the built-in vcl_synth answers it")
    }

    /// A page path's part counts as each literal the VCL sets it to, unless some `set` makes it
    /// anything else (another value, or `+=`): then the path is shown as written.
    func testAPathPartSetToMoreThanLiteralsCanBeAnything() throws {
        let read =
            "sub vcl_backend_error {\n    set beresp.body = std.fileread(\"/srv/\" + bereq.http.L + \"/\" + beresp.status + \".html\");\n    return (deliver);\n}\n"
            + "sub vcl_synth {\n    set resp.body = std.fileread(\"/srv/\" + req.http.L + \"/\" + resp.status + \".html\");\n    return (deliver);\n}\n"
        let literal = try coverage(
            "vcl 4.1;\nimport std;\nbackend default { .host = \"127.0.0.1\"; .port = \"8000\"; }\nsub vcl_backend_fetch { set bereq.http.L = \"en\"; }\n" + read
        )
        XCTAssertEqual(literal[503], .some("/srv/en/503.html"))
        let appended = try coverage(
            "vcl 4.1;\nimport std;\nbackend default { .host = \"127.0.0.1\"; .port = \"8000\"; }\nsub vcl_backend_fetch { set bereq.http.L = \"en\"; set bereq.http.L += \"-x\"; }\n"
                + read)
        XCTAssertEqual(appended[503], .some("std.fileread(\"/srv/\" + bereq.http.L + \"/\" + beresp.status + \".html\")"))
    }
}
