import DetourDiagnostics
import DetourSite
import DetourTestSupport
import Foundation
import XCTest

/// Configuration quoted in articles is read by its server's checker, and highlighted.
final class CodeBlockTests: SiteTestCase {
    private static let article = """
        ---
        title: Connection refused
        summary: Nothing listens on the upstream port.
        codes: [502]
        ---

        ## Raise the timeout

        ```nginx
        location /api/ {
            proxy_read_timout 60s;
            proxy_pass http://app;
        }
        ```

        - In a list, Caddy:

          ```caddyfile
          reverse_prox localhost:8080
          ```

        ```apache
        <Location /x>
        ErrorDocument 502 /502.html
        ```

        ```nginx
        # A fragment of http, server and location lines is read where it belongs.
        proxy_cache_path /var/cache/nginx keys_zone=pages:10m;
        server {
            location / { proxy_cache pages; proxy_pass http://app; }
        }
        ```

        ```sh
        proxy_read_timout is not checked in a shell block
        ```

        ```vcl
        sub vcl_recv {
            # The backend's request does not exist yet on the client side.
            set req.http.X-Url = bereq.url;
        }
        ```
        """

    func testAPlantedTypoIsAWarningAtItsLineInTheMarkdownFile() throws {
        let folder = try site(["content/articles/refused.md": Self.article])
        let report = build(folder)
        XCTAssertTrue(report.wroteOutput, "a warning does not stop the build")
        let text = DiagnosticFormat.text.render(report.diagnostics, toolVersion: "test")
        let expected = [
            "content/articles/refused.md:11:5: warning: [markdown.config-block] nginx would refuse this block: unknown directive \"proxy_read_timout\"",
            "content/articles/refused.md:19:3: warning: [markdown.config-block] Caddy would refuse this block: unrecognized directive: reverse_prox",
            "content/articles/refused.md:23:1: warning: [markdown.config-block] Apache would refuse this block: <location> is not closed in this file: Apache refuses it ('<location> was not closed')",
            "content/articles/refused.md:42:26: warning: [markdown.config-block] Varnish would refuse this block: Not available in subroutine 'vcl_recv'.",
        ]
        XCTAssertEqual(text.split(separator: "\n").filter { $0.contains("markdown.config-block") }.map(String.init), expected, text)
        XCTAssertFalse(build(folder, strict: true).wroteOutput, "--strict fails on them")
    }

    /// A block read once and quoted again elsewhere (another article, deeper in a list, a later
    /// build of the same process) is reported at each place it is written.
    func testTheSameBlockQuotedTwiceIsReportedWhereEachIsWritten() throws {
        let quoted = """
            ---
            title: Slow upstream
            summary: The upstream answers late.
            codes: [504]
            ---

            Two steps:

            1. Raise the timeout:

               ```nginx
               location /api/ {
                   proxy_read_timout 60s;
                   proxy_pass http://app;
               }
               ```
            """
        let folder = try site(["content/articles/refused.md": Self.article, "content/articles/slow.md": quoted])
        let warnings = { (report: BuildReport) in
            DiagnosticFormat.text.render(report.diagnostics, toolVersion: "test").split(separator: "\n").filter {
                $0.contains("proxy_read_timout")
            }.map(String.init)
        }
        let expected = [
            "content/articles/refused.md:11:5: warning: [markdown.config-block] nginx would refuse this block: unknown directive \"proxy_read_timout\"",
            "content/articles/slow.md:13:8: warning: [markdown.config-block] nginx would refuse this block: unknown directive \"proxy_read_timout\"",
        ]
        XCTAssertEqual(warnings(build(folder)), expected)
        try folder.write(["content/articles/slow.md": quoted.replacingOccurrences(of: "Two steps:", with: "Two steps:\n\nFirst:\n")])
        XCTAssertEqual(
            warnings(build(folder, output: "public2")),
            [expected[0], expected[1].replacingOccurrences(of: "slow.md:13:8", with: "slow.md:16:8")],
            "a later build of the same process moves what it remembers")
    }

    func testConfigurationIsHighlightedWithoutScript() throws {
        let folder = try site(["content/articles/refused.md": Self.article])
        XCTAssertTrue(build(folder).wroteOutput)
        let page = try folder.read("public/articles/refused/index.html")
        XCTAssertTrue(
            page.contains("<pre><code class=\"language-nginx\"><span class=\"t\">location</span>") || page.contains("<span class=\"k\">location</span>"), page)
        XCTAssertTrue(page.contains("<span class=\"k\">proxy_pass</span> http://app;"), page)
        XCTAssertTrue(page.contains("<span class=\"c\"># A fragment of http, server and location lines is read where it belongs.</span>"), page)
        XCTAssertTrue(page.contains("<span class=\"k\">reverse_prox</span> localhost:8080"), page)
        XCTAssertTrue(page.contains("<span class=\"t\">&lt;Location</span>"), page)
    }
}
