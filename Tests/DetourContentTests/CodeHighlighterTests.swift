import XCTest

@testable import DetourContent

/// Code blocks are coloured at build time; the text stays exactly what was written.
final class CodeHighlighterTests: XCTestCase {
    private func strip(_ html: String) -> String {
        html.replacingOccurrences(of: #"<span class="[a-z]">|</span>"#, with: "", options: .regularExpression)
    }

    func testEveryLanguageKeepsTheTextEscaped() throws {
        let samples = [
            ("nginx", "location ~ \\.php$ {\n    fastcgi_pass unix:/run/php.sock; # <fpm>\n    set $x \"a b\";\n}\n"),
            ("caddyfile", "example.com {\n\t@api path /api/*\n\treverse_proxy @api {upstream} localhost:8080\n}\n"),
            ("haproxy", "backend app\n    http-request set-header X-Id %[unique-id]\n    timeout server 30s\n"),
            ("apache", "<VirtualHost *:80>\n    ProxyPass \"/\" \"http://127.0.0.1:8080/\" retry=0\n</VirtualHost>\n"),
            ("sh", "$ curl -sS \"https://example.com/?a=1&b=2\" | grep -i 'x' # note\n"),
            ("yaml", "lifecycle:\n  preStop: # drain\n    exec: {command: [\"sleep\", \"5\"]}\n"),
            ("json", "{\"level\":\"error\",\"ts\":1.5,\"ok\":true}\n"),
        ]
        for (language, code) in samples {
            let html = try XCTUnwrap(CodeHighlighter.highlight(language, code), language)
            XCTAssertEqual(strip(html), MarkdownHTMLWriter.escape(code), language)
        }
        XCTAssertNil(CodeHighlighter.highlight("log", "[error] 1#1: x"), "a language detour does not colour is escaped as written")
    }

    func testWhatEachLanguageColours() {
        XCTAssertEqual(
            CodeHighlighter.highlight("haproxy", "backend app\n    timeout server 30s\n"),
            "<span class=\"t\">backend</span> app\n    <span class=\"k\">timeout</span> server <span class=\"n\">30s</span>\n")
        XCTAssertEqual(
            CodeHighlighter.highlight("json", "{\"level\":\"error\",\"ts\":1.5}"),
            "{<span class=\"k\">&quot;level&quot;</span>:<span class=\"s\">&quot;error&quot;</span>,<span class=\"k\">&quot;ts&quot;</span>:<span class=\"n\">1.5</span>}"
        )
        XCTAssertEqual(
            CodeHighlighter.highlight("sh", "$ curl -sS \"$URL\"\n"), "$ <span class=\"k\">curl</span> -sS <span class=\"s\">&quot;$URL&quot;</span>\n")
        XCTAssertEqual(
            CodeHighlighter.highlight("nginx", "proxy_pass http://app; # why\n"),
            "<span class=\"k\">proxy_pass</span> http://app; <span class=\"c\"># why</span>\n")
        XCTAssertEqual(
            CodeHighlighter.highlight("caddyfile", "@api path /api/*\nreverse_proxy @api {upstream}\n"),
            "<span class=\"v\">@api</span> path /api/*\n<span class=\"k\">reverse_proxy</span> <span class=\"v\">@api</span> <span class=\"v\">{upstream}</span>\n"
        )
    }
}
