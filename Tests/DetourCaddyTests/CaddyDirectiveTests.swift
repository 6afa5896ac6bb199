import DetourTestSupport
import Foundation
import XCTest

@testable import DetourCaddy

/// The directives detour takes for Caddy's own are those the installed `caddy adapt` knows,
/// and Caddy 1's, which many Caddyfiles online still use, are refused by both; so are the
/// argument counts a directive does not take and the words its block does not take, and the
/// tables of them are the installed caddy's.
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

    /// Lines real Caddyfiles hold, each alone in a site: Caddy 2.6 refuses some for their
    /// number of arguments (a 2.7 logger name, a root path read as a matcher, a bare respond),
    /// and detour refuses the same ones at the word Caddy names.
    func testArgumentCountsCaddyRefusesAreRefusedByBoth() throws {
        let lines = [
            "log access.log", "log", "log /", "root {$DETOUR_UNSET_ROOT}", "root * /srv", "respond", "respond /health 200",
            "respond \"ok\" 200", "header /static/* Cache-Control max-age=31536000", "rewrite", "rewrite * /index.html", "method",
            "tls internal", "tls /etc/cert.pem /etc/key.pem", "uri strip_prefix", "redir https://example.com{uri} permanent", "abort now",
            "vars x", "file_server browse", "file_server /files/* browse", "file_server browse x", "file_server index",
        ]
        for line in lines {
            let folder = try TemporaryFolder(files: ["Caddyfile": ":8080 {\n\t\(line)\n}\n"])
            defer { folder.remove() }
            let result = try CaddyAdapt.run("Caddyfile", in: folder.url)
            let caddySays = result.stderr.range(of: "Wrong argument count or unexpected line ending after '[^']*'", options: .regularExpression)
                .map { String(result.stderr[$0]) }
            let ours = CaddyChecker.check(
                .init(main: folder.url.appendingPathComponent("Caddyfile"), mainDisplay: "Caddyfile", pages: nil, maps: []),
                version: CaddyVersionSource(.debian)
            ).diagnostics.filter { $0.message.hasPrefix("Wrong argument count") }
            XCTAssertEqual(ours.map(\.message), caddySays.map { [$0] } ?? [], line)
            XCTAssertEqual(ours.map(\.location.line), caddySays == nil ? [] : [2], line)
        }
    }

    /// Values Caddy refuses, and detour with Caddy's words: upstreams written as URLs (a path
    /// copied from an nginx proxy_pass, a placeholder, a scheme its port contradicts), Caddy 1's
    /// `tls off`, TLS 1.0 in `protocols`.
    func testValuesCaddyRefusesAreRefusedByBoth() throws {
        let sites = [
            "reverse_proxy http://app:8080/api", "reverse_proxy /api/* http://app:8080?x=1", "reverse_proxy https://app:80",
            "reverse_proxy http://{env.APP}:8080", "reverse_proxy http://app:8080 h2c://grpc:9000", "reverse_proxy {\n\t\tto http://app/\n\t}",
            "php_fastcgi http://php:443", "reverse_proxy app:8080/", "reverse_proxy unix//run/app.sock",
            "tls off", "tls internal", "tls admin@example.com", "tls /etc/cert.pem", "tls {\n\t\tprotocols tls1.0 tls1.3\n\t}",
            "tls {\n\t\tprotocols tls1.2 tls1.1\n\t}", "tls {\n\t\tprotocols tls1.2 tls1.3\n\t}",
            // Argument counts on a line that opens a block: Caddy 1's rewrite, and near misses.
            "rewrite {\n\t\tto {path} /index.php\n\t}", "rewrite / {\n\t\text /\n\t}", "rewrite * /index.html {\n\t}",
            "root * /srv {\n\t}", "abort {\n\t}", "tls {\n\t}", "log access {\n\t\toutput stderr\n\t}", "log {\n\t\toutput stderr\n\t}",
            // Subdirectives of later versions, and their 2.6 near misses.
            "reverse_proxy app:8080 {\n\t\tread_buffer_size 4096\n\t}", "reverse_proxy app:8080 {\n\t\ttransport http {\n\t\t\tread_buffer 4096\n\t\t}\n\t}",
            "reverse_proxy {\n\t\tdynamic a app 8080 {\n\t\t\tversions ipv4\n\t\t}\n\t}",
            "reverse_proxy {\n\t\tdynamic a app 8080 {\n\t\t\trefresh 10s\n\t\t}\n\t}",
            "tls {\n\t\tissuer acme {\n\t\t\tprofile shortlived\n\t\t}\n\t}", "tls {\n\t\tissuer acme {\n\t\t\temail a@example.com\n\t\t}\n\t}",
            "log {\n\t\tformat filter {\n\t\t\twrap json\n\t\t\trequest>remote_ip ip_mask 8 32\n\t\t}\n\t}",
            "log {\n\t\tformat filter {\n\t\t\twrap json\n\t\t\tfields {\n\t\t\t\trequest>remote_ip ip_mask 8 32\n\t\t\t}\n\t\t}\n\t}",
            "file_server {\n\t\tbrowse\n\t\tdirectory_listing\n\t}", "tls {\n\t\tclient_auth {\n\t\t\tverifier leaf\n\t\t}\n\t}",
            "header {\n\t\tX-Anything yes\n\t}", "encode {\n\t\tgzip\n\t\tminimum_length 1024\n\t}",
            // A block whose `{` is alone on the next line (a heredoc's marker read as a word by
            // 2.6): respond reads its block only where the line opens it, reverse_proxy takes it.
            "respond \"ok\"\n\t{\n\t\tclose\n\t}", "respond \"ok\" {\n\t\tclose\n\t}",
            "reverse_proxy app:8080\n\t{\n\t}",
        ]
        for site in sites {
            let folder = try TemporaryFolder(files: ["Caddyfile": ":8080 {\n\t\(site)\n}\n"])
            defer { folder.remove() }
            let result = try CaddyAdapt.run("Caddyfile", in: folder.url)
            let caddySays = result.stderr.range(of: "Error during parsing: [^\n]*", options: .regularExpression).map {
                String(result.stderr[$0].dropFirst("Error during parsing: ".count))
            }
            let ours = CaddyChecker.check(
                .init(main: folder.url.appendingPathComponent("Caddyfile"), mainDisplay: "Caddyfile", pages: nil, maps: []),
                version: CaddyVersionSource(.debian)
            ).diagnostics.filter { $0.severity == .error }
            XCTAssertEqual(ours.map(\.message), caddySays.map { [$0] } ?? [], site)
        }
    }

    /// Two sites whose addresses are one once the environment is read (a port variable left
    /// unset in both): Caddy refuses the file naming no line; detour names the repeat, and
    /// reads Caddy's refusal back at the same place.
    func testTwoSitesWithOneAddressAreRefusedAtTheRepeat() throws {
        let caddyfile = "localhost:{$DETOUR_UNSET_PORT_A} {\n\trespond a\n}\n\nlocalhost:{$DETOUR_UNSET_PORT_B} {\n\trespond b\n}\n"
        let folder = try TemporaryFolder(files: ["Caddyfile": caddyfile])
        defer { folder.remove() }
        let result = try CaddyAdapt.run("Caddyfile", in: folder.url)
        XCTAssertTrue(result.stderr.contains("ambiguous site definition: localhost:"), result.stderr)
        let ours = CaddyChecker.check(
            .init(main: folder.url.appendingPathComponent("Caddyfile"), mainDisplay: "Caddyfile", pages: nil, maps: []), version: CaddyVersionSource(.debian)
        ).diagnostics.filter { $0.severity == .error }
        XCTAssertEqual(ours.map { "\($0.location.line) \($0.message)" }, ["5 ambiguous site definition: localhost:"])
        let read = CaddyTestOutput.read(
            "Error: ambiguous site definition: localhost:", copies: [(folder.url.appendingPathComponent("Caddyfile").path, "Caddyfile")], main: "Caddyfile")
        XCTAssertEqual(read.findings.map(\.location.line), [5])
    }

    /// The argument counts and the words each block takes, asked again of the installed caddy.
    func testTheProbedTablesAreTheInstalledCaddys() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        for (script, table) in [("caddy-directives", "CaddyArgumentData"), ("caddy-subdirectives", "CaddySubdirectiveData")] {
            let result = try ProcessRunner.run(
                try RequiredTool.find("python3"),
                [
                    root.appendingPathComponent("scripts/\(script)/probe.py").path, "--verify",
                    root.appendingPathComponent("Sources/DetourCaddy/\(table).swift").path,
                ])
            XCTAssertEqual(result.status, 0, "\(table): " + result.stdout + result.stderr)
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
