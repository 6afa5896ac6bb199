import DetourContent
import DetourTestSupport
import Foundation
import XCTest

/// The shipped error pages in headless Chromium: readable in light and dark mode as the
/// browser paints them, and, with `auto_retry`, back on the application once it answers.
final class ErrorPageBrowserTests: XCTestCase {
    private var site: TemporaryFolder!
    private var servers: [NginxServer] = []
    private var processes: [ServerProcess] = []

    override func setUpWithError() throws {
        site = try SampleSite.shipped()
    }

    override func tearDown() {
        processes.forEach { $0.stop() }
        servers.forEach { $0.stop() }
        site.remove()
    }

    func testLightAndDarkModeArePaintedReadably() throws {
        XCTAssertEqual(try ProcessRunner.detour(["build", "--quiet"], in: site.url).status, 0)
        // A same-origin frame lets a script read the colours the browser computed for the page.
        try site.write([
            "probe/probe.html": """
            <!doctype html><html><body><pre id="out">waiting</pre>
            <iframe id="page" src="/errors/de/503.html"></iframe>
            <script>
            document.getElementById("page").onload = function () {
              var d = this.contentDocument, w = this.contentWindow;
              function color(selector, property) { var e = d.querySelector(selector); return e ? w.getComputedStyle(e)[property || "color"] : "missing"; }
              document.getElementById("out").textContent = JSON.stringify({
                dark: w.matchMedia("(prefers-color-scheme: dark)").matches,
                background: w.getComputedStyle(d.documentElement).backgroundColor,
                h1: color("h1"), summary: color(".summary"), advice: color(".advice li"), retry: color(".retry"),
                link: color(".links a"), footer: color("footer"),
                button: color(".button"), buttonBackground: color(".button", "backgroundColor"),
                headings: d.querySelectorAll("h1").length,
                referenceLabel: w.getComputedStyle(d.querySelector(".ref code"), "::before").content,
                landmarks: ["header", "main", "footer"].filter(function (n) { return d.querySelector(n); }).length
              });
            };
            </script></body></html>
            """
        ])
        let port = LoopbackPort.free()
        let server = try NginxServer(
            config: NginxServer.httpBlock(
                """
                server {
                    listen 127.0.0.1:\(port);
                    root \(site.path)/public;
                    location = /probe.html { root \(site.path)/probe; }
                }
                """))
        servers.append(server)
        XCTAssertTrue(LoopbackPort.waitUntilOpen(port), server.errorLog)

        let palettes = ["light": ["background": "#ffffff"], "dark": ["background": "#14181d"]]
        for (scheme, arguments) in [("light", [String]()), ("dark", ["--force-dark-mode"])] {
            let dom = try Chromium.dumpDOM("http://127.0.0.1:\(port)/probe.html", arguments: arguments)
            let json = try XCTUnwrap(
                dom.range(of: #"(?s)<pre id="out">(.*?)</pre>"#, options: .regularExpression).map {
                    String(dom[$0]).dropFirst(#"<pre id="out">"#.count).dropLast("</pre>".count)
                }, dom)
            let painted = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], String(json))
            XCTAssertEqual(painted["dark"] as? Bool, scheme == "dark", "\(scheme): \(painted)")
            let background = try XCTUnwrap(ComputedColor.hex(painted["background"] as? String), "\(painted)")
            XCTAssertEqual(background, palettes[scheme]?["background"], "\(scheme): the page paints its own \(scheme) background")
            XCTAssertEqual(painted["headings"] as? Int, 1, "one h1")
            XCTAssertEqual(painted["landmarks"] as? Int, 3, "header, main and footer")
            // Served as a plain file, no server filled in the request's ID: no label for nothing.
            XCTAssertEqual(painted["referenceLabel"] as? String, "none", "\(painted)")
            for part in ["h1", "summary", "advice", "retry", "link", "footer"] {
                let color = try XCTUnwrap(ComputedColor.hex(painted[part] as? String), "\(scheme) \(part): \(painted)")
                let ratio = try XCTUnwrap(ColorContrast.ratio(color, on: background))
                XCTAssertGreaterThanOrEqual(ratio, 4.5, "\(scheme) \(part) \(color) on \(background)")
            }
            let button = try XCTUnwrap(ComputedColor.hex(painted["button"] as? String))
            let buttonBackground = try XCTUnwrap(ComputedColor.hex(painted["buttonBackground"] as? String))
            XCTAssertGreaterThanOrEqual(try XCTUnwrap(ColorContrast.ratio(button, on: buttonBackground)), 4.5, "\(scheme) Try again button")
        }
    }

    func testRetryScriptReloadsOnceTheApplicationAnswers() throws {
        let siteFile = site.url.appendingPathComponent("content/site.yml")
        try (String(contentsOf: siteFile, encoding: .utf8).replacingOccurrences(of: "\nauto_retry: false", with: "") + "\nauto_retry: true\n").write(
            to: siteFile, atomically: true, encoding: .utf8)
        // One second before the first re-check keeps the test short; the back-off doubles it.
        let codeFile = site.url.appendingPathComponent("content/codes/502.yml")
        try String(contentsOf: codeFile, encoding: .utf8).replacingOccurrences(of: "retry_after: 30", with: "retry_after: 1").write(
            to: codeFile, atomically: true, encoding: .utf8)
        let build = try ProcessRunner.detour(["build", "--quiet"], in: site.url)
        XCTAssertEqual(build.status, 0, build.stderr)

        let appPort = LoopbackPort.free()
        let port = LoopbackPort.free()
        let state = site.path + "/state"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let example = try ProcessRunner.detour(
            [
                "snippet", "nginx", "--example", "--listen", "127.0.0.1:\(port)", "--upstream", "127.0.0.1:\(appPort)",
                "--state", state, "--install-path", site.path + "/public",
            ], in: site.url)
        XCTAssertEqual(example.status, 0, example.stderr)
        try example.stdout.write(toFile: state + "/nginx.conf", atomically: true, encoding: .utf8)
        let proxy = try ServerProcess(
            "nginx", ["-p", state + "/", "-c", state + "/nginx.conf", "-g", "daemon off;"], log: URL(fileURLWithPath: state + "/server.log"))
        processes.append(proxy)
        XCTAssertTrue(LoopbackPort.waitUntilOpen(port), proxy.log)

        // The application is down: the browser gets the 502 page and re-checks it.
        let profile = try TemporaryFolder()
        defer { profile.remove() }
        let browser = try Chromium.open("http://127.0.0.1:\(port)/shop/cart", profile: profile)
        processes.insert(browser, at: 0)
        let accessLog = URL(fileURLWithPath: state + "/access.log")
        let rechecked = Poll.until(timeout: 20) { ((try? String(contentsOf: accessLog, encoding: .utf8)) ?? "").contains("\"HEAD /shop/cart HTTP/1.1\" 502") }
        let log = (try? String(contentsOf: accessLog, encoding: .utf8)) ?? ""
        XCTAssertTrue(rechecked, "the page re-checks its address while the application is down:\n\(log)\n\(browser.log)")
        XCTAssertTrue(log.contains("\"GET /shop/cart HTTP/1.1\" 502"), log)

        // The application comes back: the next re-check sees it and the browser reloads onto it.
        let app = try NginxServer(config: NginxServer.httpBlock("server { listen 127.0.0.1:\(appPort); location / { return 200 \"application home\"; } }"))
        servers.append(app)
        XCTAssertTrue(LoopbackPort.waitUntilOpen(appPort), app.errorLog)
        // nginx speaks HTTP/1.0 to the upstream; the method and path are what matter.
        let landed = Poll.until(timeout: 20) { app.accessLog.contains("\"GET /shop/cart HTTP/1.0\" 200") }
        XCTAssertTrue(landed, "the browser lands on the application:\n\(app.accessLog)")
        let appRequests = app.accessLog.split(separator: "\n").map { $0.split(separator: "\"").dropFirst().first.map(String.init) ?? "" }
        XCTAssertEqual(Array(appRequests.prefix(2)), ["HEAD /shop/cart HTTP/1.0", "GET /shop/cart HTTP/1.0"], "it checked, then reloaded: \(appRequests)")
    }
}
