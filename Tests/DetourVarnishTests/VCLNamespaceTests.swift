import DetourDiagnostics
import DetourTestSupport
import Foundation
import XCTest

@testable import DetourVarnish

/// Names varnishd's compiler refuses for a declaration (one the language or the VCL already
/// has), and the variables only one VCL syntax has: each VCL is given to the real `varnishd -C`
/// too, and both refuse it at the same line in the same words, or both accept it.
final class VCLNamespaceTests: XCTestCase {
    private func verdicts(_ vcl: String) throws -> (varnishd: String?, detour: String?) {
        let varnishd = try RequiredTool.find("varnishd")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(["default.vcl": vcl])
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        let file = folder.url.appendingPathComponent("default.vcl")
        let real = try ProcessRunner.run(varnishd, ["-C", "-f", file.path, "-n", folder.path + "/work"])
        let lines = real.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let message = lines.firstIndex(of: "Message from VCC-compiler:").map { lines[$0 + 1] }
        let line = VCLDifferentialTests.firstLine(in: real.stderr)
        let ours = VarnishChecker.check(.init(main: file, mainDisplay: "default.vcl", pages: nil, maps: [])).diagnostics.first {
            $0.rule == VarnishRules.syntax.id
        }
        return (real.status == 0 ? nil : "\(line.map(String.init) ?? "?"): \(message ?? real.stderr)", ours.map { "\($0.location.line): \($0.message)" })
    }

    private func head(_ syntax: String = "4.1") -> String { "vcl \(syntax);\nbackend default { .host = \"127.0.0.1\"; .port = \"8080\"; }\n" }
    private let useX = "sub vcl_recv { if (client.ip ~ x) { return (pass); } }\n"

    func testADeclarationNamedAsTheLanguageIsRefused() throws {
        for declaration in [
            "acl ban { \"127.0.0.1\"; }", "acl regsub { \"127.0.0.1\"; }", "backend req { .host = \"127.0.0.1\"; }", "acl sub { \"127.0.0.1\"; }",
            "probe hash_data { .url = \"/\"; }", "acl vcl_recv { \"127.0.0.1\"; }", "acl vcl_mine { \"127.0.0.1\"; }", "sub regsub { }",
        ] {
            let verdict = try verdicts(head() + declaration + "\n")
            XCTAssertNotNil(verdict.varnishd, declaration)
            XCTAssertEqual(verdict.detour, verdict.varnishd, declaration)
        }
    }

    func testTwoDeclarationsOfOneNameAreRefused() throws {
        for declarations in [
            "acl x { \"127.0.0.1\"; }\nbackend x { .host = \"127.0.0.1\"; }\n" + useX,
            "backend x { .host = \"127.0.0.1\"; }\nbackend x { .host = \"127.0.0.1\"; }\n",
            "probe x { .url = \"/\"; }\nprobe x { .url = \"/\"; }\n", "import std;\nacl std { \"127.0.0.1\"; }\n", "import std;\nsub std { }\n",
            "backend x { .host = \"127.0.0.1\"; }\nsub x { }\n",
        ] {
            let verdict = try verdicts(head() + declarations)
            XCTAssertNotNil(verdict.varnishd, declarations)
            XCTAssertEqual(verdict.detour, verdict.varnishd, declarations)
        }
    }

    /// The near misses: names the language has only in 4.1, a default probe, a name that is only
    /// a variable's first part, and an ACL an earlier condition names before it is declared.
    func testNamesTheLanguageDoesNotHoldAreTaken() throws {
        for vcl in [
            head("4.0") + "acl sub { \"127.0.0.1\"; }\nsub vcl_recv { if (client.ip ~ sub) { return (pass); } }\n",
            head() + "probe default { .url = \"/\"; }\n",
            head() + "acl client { \"127.0.0.1\"; }\nsub vcl_recv { if (client.ip ~ client) { return (pass); } }\n",
            head() + useX + "acl x { \"127.0.0.1\"; }\n",
        ] {
            let verdict = try verdicts(vcl)
            XCTAssertNil(verdict.varnishd, vcl)
            XCTAssertEqual(verdict.detour, verdict.varnishd, vcl)
        }
    }

    /// `beresp.storage_hint` is 4.0's, `local.socket` 4.1's: each refused in the other syntax.
    func testAVariableOfTheOtherSyntaxIsNotFound() throws {
        let hint = "sub vcl_backend_response { set beresp.storage_hint = \"static\"; }\n"
        let socket = "sub vcl_recv { set req.http.X-Socket = local.socket; }\n"
        XCTAssertNil(try verdicts(head("4.0") + hint).detour)
        XCTAssertNil(try verdicts(head() + socket).detour)
        for vcl in [head() + hint, head("4.0") + socket] {
            let verdict = try verdicts(vcl)
            XCTAssertNotNil(verdict.varnishd, vcl)
            XCTAssertEqual(verdict.detour, verdict.varnishd, vcl)
        }
    }
}
