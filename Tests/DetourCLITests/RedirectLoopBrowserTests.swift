import DetourTestSupport
import Foundation
import XCTest

/// What too-many-redirects says happens when TLS ends at the proxy and the application sends
/// every plain-HTTP request to HTTPS: nginx with TLS in front of Apache, whose rule asks
/// `%{HTTPS}`, in real headless Chromium and curl; then the article's fix (the proxy's
/// `X-Forwarded-Proto`, the rule asking for it), which ends the loop.
final class RedirectLoopBrowserTests: XCTestCase {
    private let article = Repository.content.appendingPathComponent("articles/proxy/too-many-redirects.md")

    /// Chromium's navigation error, or the page it shows when there is none, and what `curl -L`
    /// says, through nginx (TLS, `headers` set for the backend) to Apache redirecting to HTTPS
    /// when `condition` holds.
    private func visit(condition: String, headers: String) throws -> (page: String, curl: String) {
        let folder = try TemporaryFolder(files: ["www/index.html": "home of the site"])
        defer { folder.remove() }
        chmod(folder.path, 0o755)
        chmod(folder.path + "/www", 0o755)
        try SelfSignedCertificate.write(into: folder.path)
        var result = ("", "")
        let apache = try Reproduce.apache(
            "RewriteEngine On\nRewriteCond \(condition)\nRewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]",
            root: folder.path + "/www", modules: Reproduce.apacheModules + ["rewrite", "dir"]
        ) { backend in
            let port = LoopbackPort.free()
            let nginx = try NginxServer(
                config: NginxServer.httpBlock(
                    """
                    server {
                        listen 127.0.0.1:\(port) ssl;
                        ssl_certificate \(folder.path)/cert.pem;
                        ssl_certificate_key \(folder.path)/key.pem;
                        location / { proxy_set_header Host $http_host; \(headers) proxy_pass http://127.0.0.1:\(backend); }
                    }
                    """))
            defer { nginx.stop() }
            XCTAssertTrue(LoopbackPort.waitUntilOpen(port, while: { nginx.isRunning }), nginx.errorLog)
            let site = "https://127.0.0.1:\(port)/"
            let console = try Chromium.consoleMessages(site, arguments: ["--ignore-certificate-errors"])
            let page = try console.first { $0.level == "navigation" }?.text ?? Chromium.dumpDOM(site, arguments: ["--ignore-certificate-errors"])
            let curl = try ProcessRunner.run(RequiredTool.find("curl"), ["-sSkL", "-o", "/dev/null", site]).stderr
            result = (page, curl.trimmingCharacters(in: .whitespacesAndNewlines))
            return 0
        }
        XCTAssertEqual(apache.status, 0, apache.log)
        return result
    }

    private func articleQuotes(_ text: String) throws -> Bool {
        try String(contentsOf: article, encoding: .utf8).contains(text)
    }

    func testARuleThatAsksHTTPSLoopsBehindATLSProxy() throws {
        let (page, curl) = try visit(condition: "%{HTTPS} !=on", headers: "")
        XCTAssertEqual(page, "net::ERR_TOO_MANY_REDIRECTS")
        XCTAssertEqual(curl, "curl: (47) Maximum (50) redirects followed")
        XCTAssertTrue(try articleQuotes("`ERR_TOO_MANY_REDIRECTS`"))
        XCTAssertTrue(try articleQuotes("`\(curl.dropFirst(6))`"), curl)
    }

    func testTheForwardedSchemeEndsTheLoop() throws {
        let (page, curl) = try visit(condition: "%{HTTP:X-Forwarded-Proto} !=https", headers: "proxy_set_header X-Forwarded-Proto $scheme;")
        XCTAssertTrue(page.contains("home of the site"), page)
        XCTAssertEqual(curl, "")
        XCTAssertTrue(try articleQuotes("RewriteCond %{HTTP:X-Forwarded-Proto} !=https"))
        XCTAssertTrue(try articleQuotes("proxy_set_header X-Forwarded-Proto $scheme;"))
    }
}
