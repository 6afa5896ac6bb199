import DetourTestSupport
import Foundation
import XCTest

/// `detour check` as a user runs it: exit codes, output formats, the coverage table, and
/// detour's own snippet checking clean.
final class CheckCommandTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try SampleSite.make()
        XCTAssertEqual(try ProcessRunner.detour(["build", "--quiet"], in: folder.url).status, 0)
    }

    override func tearDown() {
        folder.remove()
    }

    private func server(_ body: String) -> String {
        "events {}\nhttp {\n    server {\n        listen 127.0.0.1:8080;\n        server_name shop.test;\n\(body)\n    }\n}\n"
    }

    func testDetoursOwnSnippetChecksCleanAndCoversEveryPage() throws {
        // Both parts, as the snippets' first lines say: the maps in http, the pages in the server.
        try folder.write([
            "deploy/nginx.conf": server(
                """
                        include ../public/snippets/nginx.conf;
                        location / { proxy_pass http://127.0.0.1:9000; }
                        location ~ \\.php$ { fastcgi_pass unix:/run/php/php-fpm.sock; }
                """
            ).replacingOccurrences(of: "http {\n", with: "http {\n    include ../public/snippets/nginx-http.conf;\n")
        ])
        let result = try ProcessRunner.detour(["check", "nginx", "deploy/nginx.conf", "--map", "/usr/share/detour=public"], in: folder.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(
            result.stdout,
            """
            Coverage of the pages in public/errors/:
              deploy/nginx.conf:4:5  server shop.test
                502  public/errors/en/502.html
            1 server block in 3 files

            """)
        let nginx = try RequiredTool.find("nginx")
        let scratch = try TemporaryFolder()
        defer { scratch.remove() }
        let verdict = try ProcessRunner.run(
            nginx, ["-t", "-p", scratch.path + "/", "-c", folder.url.appendingPathComponent("deploy/nginx.conf").path, "-e", scratch.path + "/error.log"])
        XCTAssertEqual(verdict.status, 0, "nginx -t rejects the snippet: \(verdict.stderr)")
    }

    /// The HAProxy snippet, loaded before the configuration as its first lines say (`haproxy -f
    /// detour.cfg -f haproxy.cfg`, here a folder of both, read in order), checks clean; a frontend
    /// without it is named, and the file is recognised as HAProxy's.
    func testDetoursOwnHAProxySnippetChecksCleanAndAFrontendWithoutItIsNamed() throws {
        try FileManager.default.createDirectory(atPath: folder.path + "/deploy/haproxy", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: folder.path + "/public/snippets/haproxy.cfg", toPath: folder.path + "/deploy/haproxy/10-detour.cfg")
        try folder.write([
            "deploy/haproxy/20-site.cfg": """
            frontend web from detour
                bind 127.0.0.1:8080
                default_backend app

            backend app from detour_backend
                server app1 127.0.0.1:9000

            defaults
                mode http

            frontend bare
                bind 127.0.0.1:8081
                default_backend plain

            backend plain
                server app2 127.0.0.1:9001

            """
        ])
        let result = try ProcessRunner.detour(["check", "haproxy", "deploy/haproxy", "--map", "/usr/share/detour=public"], in: folder.url)
        XCTAssertEqual(result.status, 1, "a frontend without pages: " + result.stdout + result.stderr)
        let lines = result.stderr.split(separator: "\n").filter { $0.contains(": warning: [") || $0.contains(": error: [") }.map {
            String($0.prefix { $0 != "]" }) + "]"
        }
        XCTAssertEqual(
            lines,
            [
                "deploy/haproxy/20-site.cfg:11:1: error: [haproxy.code-not-covered]",
                "deploy/haproxy/20-site.cfg:15:1: warning: [haproxy.upstream-errors-pass-through]",
            ], result.stderr)
        XCTAssertTrue(result.stdout.contains("deploy/haproxy/20-site.cfg:1:1  frontend web\n    502  /usr/share/detour/errors/502.http\n"), result.stdout)
        XCTAssertTrue(result.stdout.contains("2 frontend blocks in 2 files"), result.stdout)

        // HAProxy itself reads the same files in the same order.
        let haproxy = try RequiredTool.find("haproxy")
        let installed = try TemporaryFolder()
        defer { installed.remove() }
        let snippet = try folder.read("deploy/haproxy/10-detour.cfg").replacingOccurrences(of: "/usr/share/detour/", with: folder.path + "/public/")
        try installed.write(["conf.d/10-detour.cfg": snippet, "conf.d/20-site.cfg": try folder.read("deploy/haproxy/20-site.cfg")])
        let verdict = try ProcessRunner.run(haproxy, ["-c", "-f", installed.path + "/conf.d"])
        XCTAssertEqual(verdict.status, 0, verdict.stdout + verdict.stderr)

        // The same two files named one after the other, as haproxy -f a -f b.
        let named = try ProcessRunner.detour(
            ["check", "haproxy", "deploy/haproxy/10-detour.cfg", "deploy/haproxy/20-site.cfg", "--map", "/usr/share/detour=public"], in: folder.url)
        XCTAssertEqual(named.stderr, result.stderr)
        XCTAssertTrue(named.stdout.contains("2 frontend blocks in 2 files"), named.stdout)

        let guessed = try ProcessRunner.detour(["check", "deploy/haproxy/20-site.cfg", "--quiet"], in: folder.url)
        // Alone, it names defaults HAProxy would not find: the refusal is all there is to say.
        XCTAssertTrue(
            guessed.stderr.contains("[haproxy.syntax] no defaults section named 'detour'"), "a file of frontends and backends is HAProxy's: \(guessed.stderr)")
        XCTAssertFalse(guessed.stderr.contains("[haproxy.code-not-covered]"), guessed.stderr)
    }

    /// The Apache snippet, included at server level as its first lines say, checks clean for a
    /// proxying virtual host; one without ProxyErrorOverride is named, and the file is recognised.
    func testDetoursOwnApacheSnippetChecksCleanAndAProxyWithoutOverrideIsNamed() throws {
        let modules = ["mpm_event", "authz_core", "alias", "mime", "headers", "setenvif", "proxy", "proxy_http", "include", "unique_id"]
            .map { "LoadModule \($0)_module /usr/lib/apache2/modules/mod_\($0).so" }.joined(separator: "\n")
        try folder.write([
            "deploy/apache.conf": """
            ServerName localhost
            Listen 127.0.0.1:8080
            ErrorLog ${STATE}/error.log
            PidFile ${STATE}/apache.pid
            \(modules)
            Include ../public/snippets/apache.conf

            <VirtualHost 127.0.0.1:8080>
                ServerName shop.test
                ProxyPass / http://127.0.0.1:9000/
            </VirtualHost>

            <VirtualHost 127.0.0.1:8080>
                ServerName api.test
                ProxyErrorOverride Off
                ProxyPass / http://127.0.0.1:9001/
            </VirtualHost>

            """
        ])
        let result = try ProcessRunner.run(
            Repository.detourExecutable, ["check", "apache", "deploy/apache.conf", "--server-root", "deploy", "--map", "/usr/share/detour=public"],
            in: folder.url, environment: ["STATE": folder.path])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        let lines = result.stderr.split(separator: "\n").filter { $0.contains(": warning: [") }.map { String($0.prefix { $0 != "]" }) + "]" }
        XCTAssertEqual(lines, ["deploy/apache.conf:25:5: warning: [apache.upstream-errors-pass-through]"], result.stderr)
        XCTAssertTrue(
            result.stdout.contains(
                "deploy/apache.conf:17:1  virtual host shop.test\n    502  /detour-errors/%{ENV:DETOUR_LANGUAGE}/502.%{ENV:DETOUR_FORMAT}\n"), result.stdout)
        XCTAssertTrue(result.stdout.contains("2 virtual host blocks in 2 files"), result.stdout)

        // Apache itself reads it, with the pages where the snippet expects them.
        let apache = try RequiredTool.find("apache2")
        let verdict = try ProcessRunner.run(
            apache, ["-t", "-d", folder.path + "/deploy", "-f", folder.path + "/deploy/apache.conf"],
            environment: ProcessInfo.processInfo.environment.merging(["STATE": folder.path]) { _, new in new })
        XCTAssertEqual(verdict.status, 0, verdict.stdout + verdict.stderr)

        let guessed = try ProcessRunner.run(
            Repository.detourExecutable, ["check", "deploy/apache.conf", "--server-root", "deploy", "--quiet"], in: folder.url,
            environment: ["STATE": folder.path])
        XCTAssertTrue(guessed.stderr.contains("[apache.upstream-errors-pass-through]"), "a file with <VirtualHost> is Apache's: \(guessed.stderr)")
    }

    /// The Varnish snippet, included as its first lines say, checks clean and answers the code
    /// with its page; a VCL without it is named, recognised as VCL by its first line, and both
    /// compile with varnishd.
    func testDetoursOwnVarnishSnippetChecksCleanAndAVCLWithoutItIsNamed() throws {
        let head = "vcl 4.1;\n\nbackend default {\n    .host = \"127.0.0.1\";\n    .port = \"9000\";\n}\n"
        try folder.write([
            "deploy/default.vcl": head + "\ninclude \"./../public/snippets/varnish.vcl\";\n",
            "deploy/plain": head + "\nsub vcl_backend_response {\n    set beresp.ttl = 1h;\n}\n",
        ])
        let result = try ProcessRunner.detour(["check", "varnish", "deploy/default.vcl", "--map", "/usr/share/detour=public"], in: folder.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(
            result.stdout,
            """
            Coverage of the pages in public/errors/:
              deploy/default.vcl:1:1  VCL deploy/default.vcl
                502  /usr/share/detour/errors/en/502.html
            1 VCL block in 2 files

            """)

        let plain = try ProcessRunner.detour(["check", "deploy/plain", "--quiet", "--strict"], in: folder.url)
        XCTAssertEqual(plain.status, 1, plain.stderr)
        let rules = plain.stderr.split(separator: "\n").filter { $0.contains(": warning: [") }.map { String($0.prefix { $0 != "]" }) + "]" }
        XCTAssertEqual(
            rules, ["deploy/plain:8:5: warning: [varnish.upstream-errors-pass-through]", "deploy/plain:9:9: warning: [varnish.error-cached]"], plain.stderr)

        let varnishd = try RequiredTool.find("varnishd")
        let scratch = try TemporaryFolder()
        defer { scratch.remove() }
        for file in ["deploy/default.vcl", "deploy/plain"] {
            let verdict = try ProcessRunner.run(varnishd, ["-C", "-f", folder.url.appendingPathComponent(file).path, "-n", scratch.path + "/state"])
            XCTAssertEqual(verdict.status, 0, "varnishd -C refuses \(file): \(verdict.stderr.suffix(500))")
        }
    }

    /// The Caddy snippet, imported as its first lines say, covers every page in every language
    /// and format; a site without it is named, and the file is recognised as a Caddyfile.
    func testDetoursOwnCaddySnippetChecksCleanAndASiteWithoutItIsNamed() throws {
        try folder.write([
            "deploy/Caddyfile": """
            import ../public/snippets/caddy.caddyfile
            shop.test {
            \timport detour_pages
            \treverse_proxy 127.0.0.1:9000 {
            \t\timport detour_upstream_errors
            \t}
            }
            """
        ])
        let clean = try ProcessRunner.detour(["check", "caddy", "deploy/Caddyfile", "--map", "/usr/share/detour=public"], in: folder.url)
        XCTAssertEqual(clean.status, 0, clean.stderr)
        XCTAssertEqual(clean.stderr, "")
        XCTAssertEqual(
            clean.stdout,
            """
            Coverage of the pages in public/errors/:
              deploy/Caddyfile:2:1  site shop.test
                502  public/errors/en/502.html and 2 more
            1 site block in 2 files

            """)
        let adapted = try CaddyAdapt.run("deploy/Caddyfile", in: folder.url)
        XCTAssertEqual(adapted.status, 0, "caddy adapt rejects the snippet: \(adapted.stderr)")

        try folder.write(["deploy/sites.caddy": "shop.test {\n\treverse_proxy 127.0.0.1:9000\n}\n"])
        let bare = try ProcessRunner.detour(["check", "deploy/sites.caddy", "--quiet"], in: folder.url)
        XCTAssertEqual(bare.status, 1, "every visitor of a failing upstream gets an empty body")
        XCTAssertTrue(
            bare.stderr.contains("deploy/sites.caddy:1:1: error: [caddy.code-not-covered] 502 has a generated page but no handle_errors in site 'shop.test'"),
            bare.stderr)
        try folder.write(["deploy/site.conf": "shop.test {\n\treverse_proxy 127.0.0.1:9000\n\tfoo\n}\n"])
        let guessed = try ProcessRunner.detour(["check", "deploy/site.conf", "--quiet"], in: folder.url)
        XCTAssertEqual(guessed.status, 1)
        XCTAssertTrue(
            guessed.stderr.contains("deploy/site.conf:3:2: error: [caddy.directive] unrecognized directive: foo"),
            "read as a Caddyfile by its content: \(guessed.stderr)")
    }

    /// A configuration saved with Windows line endings is recognised as the same file with
    /// Unix ones is, and checked the same.
    func testACRLFConfigurationIsRecognisedAsItsServer() throws {
        let files = [
            "lb.cfg": "global\n  maxconn 100\ndefaults\n  mode http\nfrontend web\n  bind 127.0.0.1:8080\n",
            "sites.conf": "shop.test {\n\treverse_proxy 127.0.0.1:9000\n}\n",
        ]
        for (name, text) in files {
            try folder.write(["unix/" + name: text, "windows/" + name: text.replacingOccurrences(of: "\n", with: "\r\n")])
            let (unix, windows) = try (
                ProcessRunner.detour(["check", "unix/" + name], in: folder.url), ProcessRunner.detour(["check", "windows/" + name], in: folder.url)
            )
            XCTAssertEqual(windows.stdout.replacingOccurrences(of: "windows/", with: "unix/"), unix.stdout, name)
            XCTAssertEqual(windows.status, unix.status, name)
        }
    }

    func testFindingsExitOneWithLocatedMessages() throws {
        try folder.write(["deploy/nginx.conf": server("        error_page 502 @gone;\n        location / { proxy_pass http://127.0.0.1:9000; }")])
        let result = try ProcessRunner.detour(["check", "deploy/nginx.conf"], in: folder.url)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(
            result.stderr.contains(
                "deploy/nginx.conf:6:24: error: [nginx.error-page-undefined-named-location] named location '@gone' is not defined in this server: nginx answers 500 when 502 occurs\n"
            ), result.stderr)
        XCTAssertTrue(result.stdout.contains("    502  @gone (undefined)\n"), result.stdout)
    }

    /// On a terminal (a pseudo-terminal from `script`) the severity is in colour, the rule id
    /// bold and the place a link to its file; `NO_COLOR` turns colour off, `--color always` on
    /// again, and output to a pipe stays plain text, byte for byte.
    func testFindingsAreColouredOnATerminalOnly() throws {
        try folder.write(["deploy/nginx.conf": server("        error_page 502 @gone;\n        location / { proxy_pass http://127.0.0.1:9000; }")])
        let plain = "deploy/nginx.conf:6:24: error: [nginx.error-page-undefined-named-location]"
        let coloured = "\u{1B}[1;31merror\u{1B}[0m: \u{1B}[1m[nginx.error-page-undefined-named-location]\u{1B}[0m"
        let link = "\u{1B}]8;;\(folder.url.appendingPathComponent("deploy/nginx.conf").standardizedFileURL.absoluteString)\u{1B}\\"
        func onTerminal(_ arguments: String, _ environment: [String: String] = [:]) throws -> String {
            let command = "'\(Repository.detourExecutable.path)' check deploy/nginx.conf --quiet \(arguments)"
            let base = ["PATH": "/usr/bin:/bin", "TERM": "xterm"]
            let result = try ProcessRunner.run(
                URL(fileURLWithPath: "/usr/bin/script"), ["-qec", command, "/dev/null"], in: folder.url,
                environment: base.merging(environment) { $1 })
            return result.stdout
        }
        let terminal = try onTerminal("")
        XCTAssertTrue(terminal.contains(coloured) && terminal.contains(link), terminal)
        let noColor = try onTerminal("", ["NO_COLOR": "1"])
        XCTAssertTrue(noColor.contains(plain) && !noColor.contains("\u{1B}"), noColor)
        XCTAssertTrue(try onTerminal("--color always", ["NO_COLOR": "1"]).contains(coloured))
        XCTAssertTrue(try onTerminal("--color never").contains(plain))

        let piped = try ProcessRunner.detour(["check", "deploy/nginx.conf", "--quiet"], in: folder.url)
        XCTAssertTrue(piped.stderr.hasPrefix(plain) && !piped.stderr.contains("\u{1B}"), piped.stderr)
        let forced = try ProcessRunner.detour(["check", "deploy/nginx.conf", "--quiet", "--color", "always"], in: folder.url)
        XCTAssertTrue(forced.stderr.contains(coloured) && !forced.stderr.contains("\u{1B}]8;;"), "no links where no terminal is: \(forced.stderr)")
    }

    /// Four pages missing from the one folder a `root` names are one finding in text, with the
    /// others' places in a note and the instances counted; `--verbose` and JSON list all four.
    func testFindingsOfOneCauseAreOneUnlessVerbose() throws {
        let pages = (500...504).filter { $0 != 501 }.map { "        error_page \($0) /errors/\($0).html;\n" }.joined()
        try folder.write([
            "deploy/nginx.conf": server(
                pages + "        proxy_intercept_errors on;\n        location / { proxy_pass http://127.0.0.1:9000; }\n"
                    + "        location ^~ /errors/ { internal; root /usr/share/detour/old; }")
        ])
        let arguments = ["check", "nginx", "deploy/nginx.conf", "--map", "/usr/share/detour=public", "--quiet"]
        let grouped = try ProcessRunner.detour(arguments, in: folder.url)
        XCTAssertEqual(grouped.status, 1)
        XCTAssertEqual(grouped.stderr.components(separatedBy: ": error: [nginx.error-page-missing-file]").count - 1, 1, grouped.stderr)
        XCTAssertTrue(
            grouped.stderr.contains("  note: 3 more like it: deploy/nginx.conf:7:24, deploy/nginx.conf:8:24 and deploy/nginx.conf:9:24\n"), grouped.stderr)
        XCTAssertTrue(grouped.stderr.hasSuffix("1 error, 0 warnings (4 instances; --verbose lists each)\n"), grouped.stderr)
        let verbose = try ProcessRunner.detour(arguments + ["--verbose"], in: folder.url)
        XCTAssertEqual(verbose.stderr.components(separatedBy: ": error: [nginx.error-page-missing-file]").count - 1, 4, verbose.stderr)
        XCTAssertTrue(verbose.stderr.hasSuffix("4 errors, 0 warnings\n"), verbose.stderr)
        let json = try ProcessRunner.detour(arguments + ["--format", "json"], in: folder.url)
        XCTAssertEqual(json.stdout.components(separatedBy: "\"nginx.error-page-missing-file\"").count - 1, 4, "JSON keeps every instance")
    }

    /// A site whose one location sets an error page of its own, dropping the server's.
    private var droppingInherited: String {
        server(
            """
                    error_page 502 /errors/502.html;
                    location /errors/ { internal; root /usr/share/detour; }
                    location / { proxy_pass http://127.0.0.1:9000; }
                    location /api/ { proxy_pass http://127.0.0.1:9000; error_page 404 /errors/502.html; }
            """)
    }

    func testWarningsFailOnlyWithStrict() throws {
        try folder.write(["deploy/nginx.conf": droppingInherited])
        let map = ["--map", "/usr/share/detour=public"]
        let relaxed = try ProcessRunner.detour(["check", "nginx", "deploy/nginx.conf", "--quiet"] + map, in: folder.url)
        XCTAssertEqual(relaxed.status, 0, relaxed.stderr)
        XCTAssertTrue(relaxed.stderr.contains("warning: [nginx.inherited-error-page-dropped]"), relaxed.stderr)
        XCTAssertEqual(relaxed.stdout, "", "--quiet leaves out the table")
        XCTAssertEqual(try ProcessRunner.detour(["check", "nginx", "deploy/nginx.conf", "--strict"] + map, in: folder.url).status, 1)
    }

    func testSARIFForCodeScanning() throws {
        try folder.write([
            "deploy/nginx.conf": server("        error_page 502 =200 /errors/502.html;\n        location /errors/ { internal; root /usr/share/detour; }")
        ])
        let result = try ProcessRunner.detour(
            ["check", "nginx", "deploy/nginx.conf", "--map", "/usr/share/detour=public", "--format", "sarif"], in: folder.url)
        XCTAssertEqual(result.status, 1)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let results = try XCTUnwrap((object["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        XCTAssertEqual(results.compactMap { $0["ruleId"] as? String }, ["nginx.error-page-soft-status"])
        // Code scanning shows what a rule means beside each alert.
        let driver = try XCTUnwrap((object["runs"] as? [[String: Any]])?.first?["tool"] as? [String: Any])["driver"] as? [String: Any]
        let rule = try XCTUnwrap((driver?["rules"] as? [[String: Any]])?.first)
        XCTAssertEqual((rule["shortDescription"] as? [String: Any])?["text"] as? String, "an error_page turns an error into a success status")
        XCTAssertEqual((rule["defaultConfiguration"] as? [String: Any])?["level"] as? String, "error")
    }

    /// The README's rule table is the catalogue the checker reports from, as `--list-rules` prints it.
    /// What `--format sarif` prints is valid SARIF 2.1.0, as GitHub code scanning requires:
    /// each command's report, findings or none, the build's too.
    func testEveryCommandsSARIFValidatesAgainstTheSchema() throws {
        let server = "events {}\nhttp {\n    server {\n        listen 127.0.0.1:8080;\n        server_name shop.test;\n"
        try folder.write([
            "deploy/nginx.conf": server
                + "        error_page 502 =200 /errors/502.html;\n        error_page 503 @gone;\n"
                + "        location /errors/ { internal; root /usr/share/detour; }\n        location / { proxy_pass http://127.0.0.1:9000; }\n    }\n}\n",
            "deploy/Caddyfile": "http://shop.test {\n\treverse_proxy 127.0.0.1:9000\n\thandle_errors {\n\t\trespond \"{err.status_code}\"\n\t}\n}\n",
            "deploy/haproxy.cfg":
                "defaults\n    mode http\n    errorfile 503 /nowhere/503.http\nfrontend web\n    bind 127.0.0.1:8080\n    default_backend app\n"
                + "backend app\n    server a 127.0.0.1:9000\n",
            "content/articles/broken.md": "---\ntitle: B\nsummary: s\ntitel: x\n---\n\nSee [gone](/articles/gone/) and [pasted](CONTRIBUTING.md).\n",
        ])
        for server in ["nginx", "caddy", "haproxy", "apache", "varnish"] {
            let example = try ProcessRunner.detour(["snippet", server, "--example", "--state", folder.path + "/state"], in: folder.url)
            try example.stdout.write(toFile: folder.path + "/deploy/example-\(server).conf", atomically: true, encoding: .utf8)
        }
        var reports: [(String, String)] = []
        func sarif(_ arguments: [String]) throws {
            let result = try ProcessRunner.detour(arguments + ["--format", "sarif"], in: folder.url)
            XCTAssertTrue(result.stdout.hasPrefix("{"), "\(arguments): \(result.stdout)\(result.stderr)")
            reports.append((arguments.joined(separator: " "), result.stdout))
        }
        try sarif(["check", "nginx", "deploy/nginx.conf", "--map", "/usr/share/detour=public"])
        try sarif(["check", "caddy", "deploy/Caddyfile", "--map", "/usr/share/detour=public"])
        try sarif(["check", "haproxy", "deploy/haproxy.cfg"])
        for server in ["nginx", "caddy", "haproxy", "apache", "varnish"] {
            try sarif(["check", server, "deploy/example-\(server).conf"])
            try sarif(["check", server, "deploy/example-\(server).conf", "--map", "/usr/share/detour=public"])
        }
        try sarif(["build", "--output", "other"])
        XCTAssertTrue(reports.contains { $0.1.contains("\"ruleId\" : \"content.unknown-field\"") }, "the build's findings are in its report")

        XCTAssertEqual(try SARIFSchema.invalid(reports), [])
        // The schema bites: a report without its version, or a result with a level SARIF lacks, fails.
        let broken = reports[0].1.replacingOccurrences(of: "\"version\" : \"2.1.0\"", with: "\"version\" : \"2.2\"")
        let badLevel = reports[0].1.replacingOccurrences(of: "\"level\" : \"error\"", with: "\"level\" : \"fatal\"")
        XCTAssertNotEqual(broken, reports[0].1)
        XCTAssertNotEqual(badLevel, reports[0].1)
        XCTAssertEqual(try SARIFSchema.invalid([("version", broken), ("level", badLevel)]).count, 2)
    }

    func testTheReadmeListsEveryRuleAsTheCheckerDoes() throws {
        let listed = try ProcessRunner.detour(["check", "--list-rules"], in: folder.url)
        XCTAssertEqual(listed.status, 0)
        XCTAssertTrue(listed.stdout.hasPrefix("| rule | severity | what visitors would get |\n"), listed.stdout)
        let readme = try String(contentsOf: Repository.root.appendingPathComponent("README.md"), encoding: .utf8)
        XCTAssertTrue(readme.contains(listed.stdout), "README's table differs from 'detour check --list-rules':\n\(listed.stdout)")
    }

    /// CI reads the coverage from JSON too: per server, each code and what answers it (null: nothing).
    func testJSONCarriesTheCoverageAndTheFilesRead() throws {
        try folder.write(["deploy/nginx.conf": server("        location / { proxy_pass http://127.0.0.1:9000; }")])
        let result = try ProcessRunner.detour(["check", "nginx", "deploy/nginx.conf", "--format", "json"], in: folder.url)
        XCTAssertEqual(result.status, 1, "502 is not covered")
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["errors"] as? Int, 1)
        XCTAssertEqual(object["warnings"] as? Int, 0)
        XCTAssertEqual(object["files"] as? [String], ["deploy/nginx.conf"])
        let site = try XCTUnwrap((object["coverage"] as? [[String: Any]])?.first)
        XCTAssertEqual(site["name"] as? String, "shop.test")
        let answers = try XCTUnwrap(site["answers"] as? [[String: Any]])
        XCTAssertEqual(answers.count, 1)
        XCTAssertEqual(answers[0]["code"] as? Int, 502)
        XCTAssertTrue(answers[0]["answer"] is NSNull, "not covered is null: \(answers)")
    }

    func testSyntaxErrorsAreReportedLikeNginx() throws {
        try folder.write(["deploy/nginx.conf": "events {}\nhttp {\n    server {\n        listen 80\n    }\n"])
        let result = try ProcessRunner.detour(["check", "nginx", "deploy/nginx.conf", "--quiet"], in: folder.url)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("deploy/nginx.conf:5:5: error: [nginx.syntax] unexpected \"}\""), result.stderr)
        XCTAssertTrue(result.stderr.contains("deploy/nginx.conf:6:1: error: [nginx.syntax] unexpected end of file, expecting \"}\""), result.stderr)
    }

    func testUsageErrorsExit64() throws {
        XCTAssertEqual(try ProcessRunner.detour(["check"], in: folder.url).status, 64)
        XCTAssertEqual(try ProcessRunner.detour(["check", "nginx", "missing.conf"], in: folder.url).status, 64)
        try folder.write(["deploy/nginx.conf": server("")])
        XCTAssertEqual(try ProcessRunner.detour(["check", "lighttpd", "deploy/nginx.conf"], in: folder.url).status, 64)
        XCTAssertEqual(try ProcessRunner.detour(["check", "deploy/nginx.conf", "--map", "relative=public"], in: folder.url).status, 64)
        // An Apache file is recognised by its name and read as one.
        try folder.write(["deploy/httpd.conf": "ErrorDocument 502 /errors/502.html\n"])
        let apache = try ProcessRunner.detour(["check", "deploy/httpd.conf"], in: folder.url)
        XCTAssertEqual(apache.status, 0, apache.stderr)
        XCTAssertTrue(apache.stdout.contains("deploy/httpd.conf:1:1  virtual host (main server)"), apache.stdout)
    }

    func testCaddyVersionDecidesWhatTheCaddyfileMeans() throws {
        try folder.write(["deploy/Caddyfile": "shop.test {\n\thandle_errors 5xx {\n\t\trespond \"down\"\n\t}\n}\n"])
        let installed = try ProcessRunner.detour(["check", "caddy", "deploy/Caddyfile", "--quiet"], in: folder.url)
        XCTAssertEqual(installed.status, 1)
        XCTAssertTrue(
            installed.stderr.contains("deploy/Caddyfile:2:16: error: [caddy.directive] Wrong argument count or unexpected line ending after '5xx'"),
            installed.stderr)
        XCTAssertTrue(installed.stderr.contains("note: read as Caddy 2.6: the installed caddy is 2.6; --caddy-version reads for another"), installed.stderr)
        let newer = try ProcessRunner.detour(["check", "caddy", "deploy/Caddyfile", "--quiet", "--caddy-version", "v2.8.4"], in: folder.url)
        XCTAssertFalse(newer.stderr.contains("caddy.directive"), newer.stderr)
        XCTAssertEqual(try ProcessRunner.detour(["check", "caddy", "deploy/Caddyfile", "--caddy-version", "newest"], in: folder.url).status, 64)
    }

    func testHAProxyVersionDecidesWhichKeywordsAreRefused() throws {
        try folder.write(["deploy/haproxy.cfg": "defaults\n    mode http\nfrontend web\n    bind 127.0.0.1:1\n    reqadd X-A:\\ b\n    quic-option x\n"])
        let installed = try ProcessRunner.detour(["check", "haproxy", "deploy/haproxy.cfg", "--quiet"], in: folder.url)
        XCTAssertEqual(installed.status, 1)
        XCTAssertTrue(
            installed.stderr.contains("deploy/haproxy.cfg:5:5: error: [haproxy.directive] The 'reqadd' directive is not supported anymore"), installed.stderr)
        XCTAssertTrue(
            installed.stderr.contains("deploy/haproxy.cfg:6:5: error: [haproxy.directive] unknown keyword 'quic-option' in 'frontend' section"),
            installed.stderr)
        XCTAssertTrue(
            installed.stderr.contains("note: read as HAProxy 2.6: the installed haproxy is 2.6; --haproxy-version reads for another"), installed.stderr)
        let newer = try ProcessRunner.detour(["check", "haproxy", "deploy/haproxy.cfg", "--quiet", "--haproxy-version", "3.0"], in: folder.url)
        XCTAssertTrue(newer.stderr.contains("deploy/haproxy.cfg:5:5: error: [haproxy.directive]"), newer.stderr)
        XCTAssertFalse(newer.stderr.contains("quic-option"), "a newer HAProxy may take it: \(newer.stderr)")
        XCTAssertEqual(try ProcessRunner.detour(["check", "haproxy", "deploy/haproxy.cfg", "--haproxy-version", "newest"], in: folder.url).status, 64)
    }
}
