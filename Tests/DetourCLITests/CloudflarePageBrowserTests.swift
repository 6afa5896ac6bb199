import DetourContent
import DetourTestSupport
import Foundation
import XCTest

/// The pages `detour build` writes for Cloudflare (`errors/cloudflare/`), with their tokens
/// replaced by boxes as Cloudflare fills them in, in headless Chromium in light and dark mode:
/// the box shows once, inside the page, readable; nothing else is requested.
final class CloudflarePageBrowserTests: XCTestCase {
    /// Cloudflare's page types and the token each must carry exactly once.
    private static let tokens: [String: String?] = [
        "500_errors": "::CLOUDFLARE_ERROR_500S_BOX::", "1000_errors": "::CLOUDFLARE_ERROR_1000S_BOX::", "ratelimit_block": nil, "waf_block": nil,
        "ip_block": nil, "country_challenge": "::CAPTCHA_BOX::", "managed_challenge": "::CAPTCHA_BOX::", "under_attack": "::IM_UNDER_ATTACK_BOX::",
    ]

    /// What Cloudflare puts in place of each token: its markup for a 522, a 1020, a challenge.
    private static let boxes = [
        "::CLOUDFLARE_ERROR_500S_BOX::": """
        <div class="cf-error-details cf-error-522"><h1>Connection timed out</h1><p>The initial connection between Cloudflare's network \
        and the origin web server timed out. As a result, the web page can not be displayed.</p><ul><li>Ray ID: 8a1b2c3d4e5f6789</li>\
        <li>Your IP address: 203.0.113.7</li><li>Error reference number: 522</li><li>Cloudflare Location: Frankfurt</li></ul></div>
        """,
        "::CLOUDFLARE_ERROR_1000S_BOX::": """
        <div class="cf-error-details cf-error-1020"><h1>Access denied</h1><p>This website is using a security service to protect \
        itself from online attacks.</p><ul><li>Ray ID: 8a1b2c3d4e5f6789</li><li>Timestamp: 2026-11-25 18:40:00 UTC</li>\
        <li>Your IP address: 203.0.113.7</li><li>Error reference number: 1020</li></ul></div>
        """,
        "::CAPTCHA_BOX::": """
        <div class="cf-captcha-container"><form id="challenge-form" action="/cdn-cgi/challenge-platform/h/b/orchestrate" method="POST">\
        <label><input type="checkbox" name="cf_captcha_kind"> Verify you are human</label></form></div>
        """,
        "::IM_UNDER_ATTACK_BOX::": """
        <div class="cf-browser-verification cf-im-under-attack"><div id="cf-content"><p>Checking your browser before accessing \
        help.example.com.</p><p>This process is automatic. Your browser will redirect to your requested content shortly.</p>\
        <p>Please allow up to 5 seconds…</p></div></div>
        """,
        "::RAY_ID::": "8a1b2c3d4e5f6789",
        "::CLIENT_IP::": "203.0.113.7",
    ]

    private var site: TemporaryFolder!
    private var server: NginxServer?

    override func setUpWithError() throws {
        site = try SampleSite.shipped()
        let build = try ProcessRunner.detour(["build", "--quiet"], in: site.url)
        XCTAssertEqual(build.status, 0, build.stderr)
    }

    override func tearDown() {
        server?.stop()
        site.remove()
    }

    /// Every type in every language, and the default language's copy: the token exactly once,
    /// nothing to fetch, no other token left for Cloudflare to choke on.
    func testEveryPageCarriesItsTokenOnce() throws {
        let written = site.snapshot("public/errors/cloudflare")
        let languages = ["", "en/", "de/", "fr/", "es/", "ja/"]
        XCTAssertEqual(Set(written.keys), Set(languages.flatMap { folder in Self.tokens.keys.map { "\(folder)\($0).html" } }))
        for (path, data) in written {
            let page = String(decoding: data, as: UTF8.self)
            let type = String((path as NSString).lastPathComponent.dropLast(".html".count))
            for token in Set(Self.tokens.values.compactMap { $0 }) {
                let expected = Self.tokens[type] == token ? 1 : 0
                XCTAssertEqual(page.components(separatedBy: token).count - 1, expected, "\(path): \(token)")
            }
            let others = page.matches(of: /::[A-Z0-9_]+::/).map { String($0.output) }.filter { Self.tokens[type] != $0 }
            XCTAssertTrue(others.allSatisfy { $0 == "::RAY_ID::" }, "\(path): only tokens Cloudflare fills in: \(others)")
            XCTAssertLessThanOrEqual(data.count, 10 * 1024, path)
            XCTAssertNil(
                page.range(
                    of: #"(src|href)="(?!https://help\.example\.com/|https://status\.example\.com/|https://example\.com/|mailto:|data:)"#,
                    options: .regularExpression), "\(path): nothing of its own to fetch")
        }
        // Each language in its own words, and its help link in that language.
        let german = String(decoding: try XCTUnwrap(written["de/waf_block.html"]), as: UTF8.self)
        XCTAssertTrue(german.contains("<html lang=\"de\">") && german.contains("<h1>Diese Anfrage wurde blockiert</h1>"), german)
        XCTAssertTrue(german.contains("href=\"https://help.example.com/de/codes/403/\""), german)
        XCTAssertTrue(german.contains("<footer>© Example Hosting</footer>"), "the help site's footer, not the proxy's: \(german)")
        let english = String(decoding: try XCTUnwrap(written["500_errors.html"]), as: UTF8.self)
        XCTAssertTrue(english.contains("href=\"https://help.example.com/#codes_cdn\""), "the 5xx page links to Cloudflare's codes: \(english)")
    }

    /// Filled in as Cloudflare fills them, every type in light and dark mode, in English,
    /// German and Japanese: the box once, inside the page, readable; no request but the page.
    func testFilledPagesInLightAndDarkMode() throws {
        var frames: [String] = []
        for language in ["en", "de", "ja"] {
            for type in Self.tokens.keys.sorted() {
                var page = try site.read("public/errors/cloudflare/\(language)/\(type).html")
                for (token, box) in Self.boxes { page = page.replacingOccurrences(of: token, with: box) }
                try site.write(["probe/cf/\(language)/\(type).html": page])
                frames.append("/cf/\(language)/\(type).html")
            }
        }
        try site.write(["probe/probe.html": Self.probe(frames)])
        let port = LoopbackPort.free()
        let nginx = try NginxServer(config: NginxServer.httpBlock("server { listen 127.0.0.1:\(port); root \(site.path)/probe; }"))
        server = nginx
        XCTAssertTrue(LoopbackPort.waitUntilOpen(port), nginx.errorLog)

        for (scheme, arguments) in [("light", [String]()), ("dark", ["--force-dark-mode"])] {
            let dom = try Chromium.dumpDOM("http://127.0.0.1:\(port)/probe.html", arguments: arguments)
            let json = try XCTUnwrap(dom.firstMatch(of: /(?s)<pre id="out">(.*?)<\/pre>/).map { String($0.output.1) }, dom)
            let results = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]], json)
            XCTAssertEqual(results.count, frames.count, json)
            for result in results {
                let frame = result["frame"] as? String ?? "?"
                let type = String((frame as NSString).lastPathComponent.dropLast(".html".count))
                XCTAssertEqual(result["dark"] as? Bool, scheme == "dark", "\(scheme) \(frame)")
                XCTAssertEqual(result["boxes"] as? Int, Self.tokens[type]! == nil ? 0 : 1, "\(frame): the box once")
                if Self.tokens[type]! != nil {
                    XCTAssertEqual(result["boxInMain"] as? Bool, true, "\(frame): the box sits in the page's main part")
                    XCTAssertGreaterThan(result["boxHeight"] as? Int ?? 0, 20, "\(frame): the box is shown")
                }
                XCTAssertEqual(result["resources"] as? Int, 0, "\(frame): nothing outside the page is requested")
                XCTAssertEqual(result["overflow"] as? Bool, false, "\(frame): nothing wider than the window")
                let background = try XCTUnwrap(ComputedColor.hex(result["background"] as? String), "\(result)")
                for part in ["h1", "summary", "box", "link"] where result[part] as? String != "missing" {
                    let color = try XCTUnwrap(ComputedColor.hex(result[part] as? String), "\(scheme) \(frame) \(part): \(result)")
                    XCTAssertGreaterThanOrEqual(
                        try XCTUnwrap(ColorContrast.ratio(color, on: background)), 4.5, "\(scheme) \(frame) \(part) \(color) on \(background)")
                }
            }
        }
        let requested = Set(
            nginx.accessLog.split(separator: "\n").compactMap {
                $0.split(separator: "\"").dropFirst().first?.split(separator: " ").dropFirst().first.map(String.init)
            })
        XCTAssertEqual(requested, Set(["/probe.html"] + frames), "only the probe and the pages")

        // What a visitor sees: the 5xx page painted in each mode, its colours its own.
        var shots: [String: Data] = [:]
        for (scheme, arguments) in [("light", [String]()), ("dark", ["--force-dark-mode"])] {
            let file = site.path + "/cloudflare-500_errors-\(scheme).png"
            try Chromium.screenshot("http://127.0.0.1:\(port)/cf/en/500_errors.html", to: file, arguments: arguments)
            let png = try Data(contentsOf: URL(fileURLWithPath: file))
            XCTAssertEqual(Array(png.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "\(scheme): a PNG")
            XCTAssertGreaterThan(png.count, 10_000, "\(scheme): a painted page, not a blank one")
            shots[scheme] = png
        }
        XCTAssertNotEqual(shots["light"], shots["dark"], "dark mode paints the page differently")
    }

    /// Loads each page in a same-origin frame, one after the other, and reads what the browser
    /// computed: colours, the box, requests made, whether anything is wider than the window.
    private static func probe(_ frames: [String]) -> String {
        let list = frames.map { "\"\($0)\"" }.joined(separator: ",")
        return """
            <!doctype html><html><head><link rel="icon" href="data:,"></head><body><pre id="out">waiting</pre>
            <iframe id="page" style="width:800px;height:900px"></iframe>
            <script>
            var frames = [\(list)], results = [], frame = document.getElementById("page");
            function next() {
              if (!frames.length) { document.getElementById("out").textContent = JSON.stringify(results); return; }
              var url = frames.shift();
              frame.onload = function () {
                var d = frame.contentDocument, w = frame.contentWindow;
                function color(selector) { var e = d.querySelector(selector); return e ? w.getComputedStyle(e).color : "missing"; }
                var box = d.querySelector(".cf-box");
                results.push({
                  frame: url, dark: w.matchMedia("(prefers-color-scheme: dark)").matches,
                  background: w.getComputedStyle(d.documentElement).backgroundColor,
                  h1: color("main > h1"), summary: color(".summary"), link: color(".links a"), box: color(".cf-box p, .cf-box li, .cf-box label"),
                  boxes: d.querySelectorAll(".cf-box").length, boxInMain: !!(box && box.closest("main")),
                  boxHeight: box ? Math.round(box.getBoundingClientRect().height) : 0,
                  resources: w.performance.getEntriesByType("resource").length,
                  overflow: d.documentElement.scrollWidth > w.innerWidth
                });
                next();
              };
              frame.src = url;
            }
            next();
            </script></body></html>
            """
    }
}
