import DetourDiagnostics
import DetourTestSupport
import Foundation
import XCTest

@testable import DetourCaddy

/// Each Caddyfile is given to the real `caddy adapt` and to detour: both accept it, or both
/// refuse it at the same file and line.
final class CaddyfileDifferentialTests: XCTestCase {
    /// Name → files; the main one is `Caddyfile`.
    static let cases: [(String, [String: String])] = [
        ("site", ["Caddyfile": "example.com {\n\trespond \"hi\"\n}\n"]),
        ("global options", ["Caddyfile": "{\n\tadmin off\n}\n:8080 {\n\troot * /srv\n\tfile_server\n}\n"]),
        ("site without braces", ["Caddyfile": ":8080\nrespond hi\n"]),
        ("snippet with arguments", ["Caddyfile": "(common) {\n\theader X-Site {args.0}\n}\nexample.com {\n\timport common hello\n\trespond ok\n}\n"]),
        ("imported file", ["Caddyfile": "example.com {\n\timport sites/extra.caddy\n}\n", "sites/extra.caddy": "respond \"from import\"\n"]),
        ("imported glob", ["Caddyfile": "import sites/*.caddy\n", "sites/a.caddy": "a.example.com {\n\trespond a\n}\n"]),
        ("environment default", ["Caddyfile": "{$DETOUR_TEST_SITE:example.com} {\n\trespond hi\n}\n"]),
        ("quotes and continuation", ["Caddyfile": "example.com {\n\trespond `a \"q\"` 200\n\trespond /x \"b \\\"c\\\"\" \\\n\t\t200\n}\n"]),
        (
            "nested routes",
            [
                "Caddyfile":
                    "example.com {\n\troute {\n\t\theader X 1\n\t\trespond hi\n\t}\n\thandle_errors {\n\t\trewrite * /errors/{err.status_code}.html\n\t\tfile_server\n\t}\n}\n"
            ]
        ),
        (
            "handle_response",
            [
                "Caddyfile":
                    "example.com {\n\treverse_proxy localhost:9 {\n\t\t@error status 5xx\n\t\thandle_response @error {\n\t\t\trespond \"down\" 503\n\t\t}\n\t}\n}\n"
            ]
        ),
        ("comments", ["Caddyfile": "# c\nexample.com { # trailing\n\trespond hi # x\n}\n"]),
        ("named matcher", ["Caddyfile": "example.com {\n\t@api path /api/*\n\treverse_proxy @api localhost:9000\n\trespond hi\n}\n"]),
        ("unknown directive", ["Caddyfile": "example.com {\n\tfoo bar\n}\n"]),
        ("a logger name before 2.7", ["Caddyfile": "example.com {\n\tlog access.log\n\trespond hi\n}\n"]),
        ("log with its block", ["Caddyfile": "example.com {\n\tlog {\n\t\toutput stdout\n\t}\n\trespond hi\n}\n"]),
        ("upstream URL with a path in a handle", ["Caddyfile": "example.com {\n\thandle /api/* {\n\t\treverse_proxy http://api:8080/v1\n\t}\n}\n"]),
        ("upstream URL without a path", ["Caddyfile": "example.com {\n\treverse_proxy http://api:8080 {\n\t\tto http://api2:8080\n\t}\n}\n"]),
        ("Caddy 1's tls off", ["Caddyfile": "http://example.com {\n\ttls off\n\trespond hi\n}\n"]),
        ("a bare respond in a route", ["Caddyfile": "example.com {\n\troute {\n\t\trespond\n\t}\n}\n"]),
        ("unknown directive in route", ["Caddyfile": "example.com {\n\troute {\n\t\theader X 1\n\t\tbogus\n\t}\n}\n"]),
        ("unknown directive in handle in route", ["Caddyfile": "example.com {\n\thandle {\n\t\troute {\n\t\t\tbogus\n\t\t}\n\t}\n}\n"]),
        ("unknown directive in an imported file", ["Caddyfile": "example.com {\n\timport extra.caddy\n}\n", "extra.caddy": "\n\nrepsond hi\n"]),
        ("handle_errors with codes", ["Caddyfile": "example.com {\n\thandle_errors 404 {\n\t\trespond hi\n\t}\n}\n"]),
        (
            "bracket arguments, which 2.6 leaves for runtime",
            ["Caddyfile": "(c) {\n\theader X-Site {args[0]}\n}\nexample.com {\n\timport c hello\n\trespond ok\n}\n"]
        ),
        ("heredoc, which 2.6 does not know", ["Caddyfile": "example.com {\n\trespond <<EOF\n\thello\n\tEOF\n}\n"]),
        ("unclosed block", ["Caddyfile": "example.com {\n\trespond hi\n"]),
        ("unterminated quote", ["Caddyfile": "example.com {\n\trespond \"hi\n}\n"]),
        ("brace against the address", ["Caddyfile": "example.com{\n\trespond hi\n}\n"]),
        ("brace with more on its line", ["Caddyfile": "example.com {\n\troute { respond hi }\n}\n"]),
        ("empty braces at the end of a line", ["Caddyfile": "example.com {\n\troute {}\n}\n"]),
        ("stray closing brace", ["Caddyfile": "example.com {\n\trespond hi\n}\n}\n"]),
        ("missing import", ["Caddyfile": "example.com {\n\timport missing.caddy\n}\n"]),
        ("import cycle", ["Caddyfile": "import s/b.caddy\n", "s/b.caddy": "import ../Caddyfile\n"]),
        ("glob with two wildcards", ["Caddyfile": "import s/*/*.caddy\n"]),
        ("snippet declared twice", ["Caddyfile": "(a) {\n\trespond a\n}\n(a) {\n\trespond b\n}\n"]),
        ("addresses joined by a comma", ["Caddyfile": "a.com,b.com {\n\trespond hi\n}\n"]),
        ("trailing comma", ["Caddyfile": "a.com, {\n\trespond hi\n}\n"]),
        ("root path without a matcher, which 2.6 reads as one", ["Caddyfile": "example.com {\n\troot /srv\n\tfile_server\n}\n"]),
        ("root path without a matcher in handle", ["Caddyfile": "example.com {\n\thandle /app/* {\n\t\troot \"/srv/app\"\n\t\tfile_server\n\t}\n}\n"]),
        ("root with a matcher", ["Caddyfile": "example.com {\n\troot /assets/* /srv\n\troot * /srv\n\tfile_server\n}\n"]),
        (
            "servers option of a later Caddy",
            ["Caddyfile": "{\n\tservers {\n\t\ttrusted_proxies static private_ranges\n\t}\n}\nexample.com {\n\trespond hi\n}\n"]
        ),
        ("global option of a later Caddy", ["Caddyfile": "{\n\tpersist_config off\n}\nexample.com {\n\trespond hi\n}\n"]),
        ("site address with placeholder text", ["Caddyfile": "n8n.<domain>.<suffix> {\n\treverse_proxy n8n:5678\n}\n"]),
        ("placeholder text in a plain-HTTP address", ["Caddyfile": "http://n8n.<domain> {\n\trespond hi\n}\n"]),
        ("placeholder text on the HTTP port", ["Caddyfile": "<domain>:80 {\n\trespond hi\n}\n"]),
        ("placeholder text with an internal issuer", ["Caddyfile": "<domain> {\n\ttls internal\n\trespond hi\n}\n"]),
        ("a wildcard inside a label", ["Caddyfile": "example.com, a*.example.com {\n\trespond hi\n}\n"]),
        ("placeholder text in brackets, read as an IPv6 host", ["Caddyfile": "[CF_HOST] {\n\trespond hi\n}\n"]),
        ("a wildcard label first", ["Caddyfile": "*.example.com {\n\trespond hi\n}\n"]),
        ("an unset variable for the host", ["Caddyfile": "{$DETOUR_UNSET_HOST}:8443 {\n\trespond hi\n}\n"]),
        (
            "global log filter written without 2.6's fields block",
            [
                "Caddyfile":
                    "{\n\tlog {\n\t\tformat filter {\n\t\t\twrap json\n\t\t\trequest>remote_ip ip_mask 8 32\n\t\t}\n\t}\n}\nexample.com {\n\trespond hi\n}\n"
            ]
        ),
        (
            "global log filter with its fields block",
            [
                "Caddyfile":
                    "{\n\tlog {\n\t\tformat filter {\n\t\t\twrap json\n\t\t\tfields {\n\t\t\t\trequest>remote_ip ip_mask 8 32\n\t\t\t}\n\t\t}\n\t}\n}\nexample.com {\n\trespond hi\n}\n"
            ]
        ),
        (
            "proxy subdirective of a later Caddy inside handle",
            ["Caddyfile": "example.com {\n\thandle /api/* {\n\t\treverse_proxy app:8080 {\n\t\t\tread_buffer_size 4096\n\t\t}\n\t}\n}\n"]
        ),
        (
            "proxy transport subdirective inside handle",
            [
                "Caddyfile":
                    "example.com {\n\thandle /api/* {\n\t\treverse_proxy app:8080 {\n\t\t\ttransport http {\n\t\t\t\tread_buffer 4096\n\t\t\t}\n\t\t}\n\t}\n}\n"
            ]
        ),
        (
            "snippet written above, imported after later lines of a block",
            [
                "Caddyfile":
                    "(p) {\n\treverse_proxy localhost:9 {\n\t\tlb_policy first\n\t}\n}\nexample.com {\n\thandle_errors {\n\t\trewrite * /e.html\n\t\troot * /srv\n\t\timport p\n\t}\n}\n"
            ]
        ),
    ]

    func testDetourRefusesWhatCaddyAdaptRefusesAtTheSameLine() throws {
        for (name, files) in Self.cases {
            let folder = try TemporaryFolder(files: files)
            defer { folder.remove() }
            let result = try CaddyAdapt.run("Caddyfile", in: folder.url)
            let config = CaddyConfig.load(main: folder.url.appendingPathComponent("Caddyfile"), displayPath: "Caddyfile")
            let errors =
                config.diagnostics + CaddyGlobalOptions.check(config) + CaddyDirectiveCheck.check(config) + CaddySiteAddresses.unqualifiedSubjects(config)
            XCTAssertEqual(
                errors.isEmpty, result.status == 0, "\(name): caddy adapt says \(Self.lastLine(result.stderr)); detour says \(errors.map(\.message))")
            guard result.status != 0, let first = errors.first, let (file, line) = Self.place(in: result.stderr) else { continue }
            XCTAssertEqual(
                (first.location.path as NSString).lastPathComponent, (file as NSString).lastPathComponent, "\(name): \(Self.lastLine(result.stderr))")
            XCTAssertEqual(first.location.line, line, "\(name): \(Self.lastLine(result.stderr)); detour: \(first.message)")
        }
    }

    /// The innermost `FILE:LINE` Caddy names (nested directives wrap their errors).
    private static func place(in stderr: String) -> (String, Int)? {
        let text = lastLine(stderr)
        guard let regex = try? NSRegularExpression(pattern: #"([^\s:']+):(\d+)(?: -|:)"#) else { return nil }
        let matches = regex.matches(in: text, range: NSRange(text.startIndex..., in: text))
        guard let last = matches.last, let file = Range(last.range(at: 1), in: text), let line = Range(last.range(at: 2), in: text) else { return nil }
        return (String(text[file]), Int(text[line]) ?? 0)
    }

    private static func lastLine(_ stderr: String) -> String {
        stderr.split(separator: "\n").last { !$0.hasPrefix("{") }.map(String.init) ?? ""
    }
}
