import DetourTestSupport
import Foundation
import XCTest

/// `detour verify apache` on configurations written as operators write them: the real Apache
/// runs the sandboxed copy, its lines rewritten whole, and what it answered decides the findings.
final class VerifyApacheTests: XCTestCase {
    private var workspace: VerifyWorkspace!

    override func setUpWithError() throws {
        workspace = try VerifyWorkspace(server: "apache2")
    }

    override func tearDown() {
        workspace?.remove()
    }

    private let head = """
        ServerRoot /etc/apache2
        Listen 80
        LoadModule mpm_event_module /usr/lib/apache2/modules/mod_mpm_event.so
        LoadModule authz_core_module /usr/lib/apache2/modules/mod_authz_core.so
        LoadModule alias_module /usr/lib/apache2/modules/mod_alias.so
        LoadModule proxy_module /usr/lib/apache2/modules/mod_proxy.so
        LoadModule proxy_http_module /usr/lib/apache2/modules/mod_proxy_http.so
        User www-data
        Group www-data
        PidFile /run/apache2/apache2.pid
        ErrorLog /var/log/apache2/error.log
        Timeout 300

        """

    private func verify(_ config: String, extra: [String] = []) throws -> ProcessResult {
        try workspace.folder.write(["conf/apache2.conf": config])
        return try workspace.detour(
            [
                "verify", "apache", "conf/apache2.conf", "--pages", "public/errors", "--map", "/usr/share/detour=public", "--timeout", "5", "--format",
                "json",
            ] + extra)
    }

    /// ErrorDocument with ProxyErrorOverride answers the codes it names with detour's pages;
    /// the codes it leaves out get Apache's own page, named at the virtual host.
    func testPagesWhereErrorDocumentNamesThemAndApachesOwnElsewhere() throws {
        let result = try verify(
            head
                + """
                <VirtualHost *:80>
                    ServerName shop.example
                    Alias /errors/ /usr/share/detour/errors/
                    <Directory /usr/share/detour/errors/>
                        Require all granted
                    </Directory>
                    ErrorDocument 502 /errors/502.html
                    ErrorDocument 503 /errors/503.html
                    ProxyPass /errors/ !
                    ProxyPass /app/ http://10.0.0.5:8080/
                    ProxyErrorOverride On
                </VirtualHost>

                """)
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertEqual(try VerifyWorkspace.findings(result), ["apache.code-not-covered:13"])
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/app/", "not listening")?.status, 503)
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/app/", "not listening")?.body, "detour's public/errors/503.html")
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/app/", "answering 502")?.body, "detour's public/errors/502.html")
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/app/", "answering 500")?.body, "the server's own error page")
        let rewrites = try VerifyWorkspace.texts(result, "rewrites")
        XCTAssertTrue(rewrites.contains { $0.hasPrefix("Listen 80: 127.0.0.1:") }, "\(rewrites)")
        XCTAssertTrue(rewrites.contains { $0.hasPrefix("ProxyPass http://10.0.0.5:8080/: http://127.0.0.1:") }, "\(rewrites)")
        XCTAssertTrue(rewrites.contains("timeout 300: 3, so a silent upstream is given up in time"), "\(rewrites)")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: workspace.scratch.path), [], "the sandbox is removed")
        let left = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/pgrep"), ["-f", workspace.scratch.path], in: workspace.folder.url)
        XCTAssertEqual(left.stdout, "", "no Apache is left: the parent got the signal that stops it, and its children went with it")
    }

    /// A virtual host with `SSLEngine on` keeps TLS with the sandbox's certificate and is asked
    /// over TLS; its sibling on port 80 only redirects (`RewriteCond %{HTTPS} off`), as
    /// Certbot writes it.
    func testATLSVirtualHostIsAskedOverTLS() throws {
        let result = try verify(
            head
                + """
                Listen 443
                LoadModule ssl_module /usr/lib/apache2/modules/mod_ssl.so
                LoadModule rewrite_module /usr/lib/apache2/modules/mod_rewrite.so
                <VirtualHost *:80>
                    ServerName shop.example
                    RewriteEngine on
                    RewriteCond %{HTTPS} off
                    RewriteRule ^ https://%{SERVER_NAME}%{REQUEST_URI} [END,NE,R=permanent]
                </VirtualHost>
                <VirtualHost *:443>
                    ServerName shop.example
                    SSLEngine on
                    SSLCertificateFile /etc/letsencrypt/live/shop.example/fullchain.pem
                    SSLCertificateKeyFile /etc/letsencrypt/live/shop.example/privkey.pem
                    SSLProtocol all -SSLv3 -TLSv1 -TLSv1.1
                    ProxyPass / http://10.0.0.5:8080/
                </VirtualHost>

                """)
        XCTAssertEqual(
            Set(try VerifyWorkspace.findings(result)), ["apache.code-not-covered:22", "apache.upstream-errors-pass-through:28"], result.stdout + result.stderr)
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "not listening", scheme: "http")?.status, 301)
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "not listening", scheme: "https")?.status, 503)
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "not listening", scheme: "https")?.body, "the server's own error page")
        let rewrites = try VerifyWorkspace.texts(result, "rewrites")
        XCTAssertTrue(rewrites.contains("sslcertificatefile /etc/letsencrypt/live/shop.example/fullchain.pem: the sandbox's throwaway one"), "\(rewrites)")
    }

    /// PHP behind FastCGI is asked for by a file name its `<FilesMatch>` takes, and answered by
    /// the fake upstream speaking FastCGI; a page outside every `<Directory>` grant is refused,
    /// as the real layout has it (`<Directory />` denies, `/var/www/` grants).
    func testFastCGIByFileNameAndAPageNoGrantReaches() throws {
        let result = try verify(
            head
                + """
                LoadModule proxy_fcgi_module /usr/lib/apache2/modules/mod_proxy_fcgi.so
                <Directory />
                    Require all denied
                </Directory>
                <VirtualHost *:80>
                    ServerName php.example
                    DocumentRoot /var/www/php
                    <Directory /var/www/>
                        Require all granted
                    </Directory>
                    Alias /maintenance.html /srv/pages/maintenance.html
                    ErrorDocument 503 /maintenance.html
                    <FilesMatch "\\.php$">
                        SetHandler "proxy:unix:/run/php/php8.2-fpm.sock|fcgi://localhost"
                    </FilesMatch>
                </VirtualHost>

                """)
        let findings = try VerifyWorkspace.findings(result)
        XCTAssertTrue(findings.contains("apache.error-page-protected:24"), "\(findings) \(result.stdout)")
        XCTAssertTrue(findings.contains("apache.upstream-errors-pass-through:26"), "\(findings)")
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/a.php", "answering 500")?.body, "the upstream's own body", result.stdout)
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/maintenance.html", "answering 200")?.status, 403)
        let rewrites = try VerifyWorkspace.texts(result, "rewrites")
        XCTAssertTrue(rewrites.contains { $0.hasSuffix("the fake upstream (fcgi)") }, "\(rewrites)")
    }

    /// Without ProxyErrorOverride the application's own errors pass, named at its ProxyPass
    /// (whose own `timeout=` is shortened like Timeout); what `apache2 -t` refuses is a finding
    /// at its line.
    func testErrorsThatPassAndRefusals() throws {
        let passing = try verify(
            head
                + "<VirtualHost *:80>\n    ErrorDocument 503 /503.html\n    ProxyPass / http://10.0.0.5:8080/ timeout=7200\n    DocumentRoot /srv/none\n</VirtualHost>\n"
        )
        XCTAssertTrue(try VerifyWorkspace.findings(passing).contains("apache.upstream-errors-pass-through:15"), passing.stdout)
        // The page's URI is the ProxyPass's whether or not its file is there: proxied, not missing.
        XCTAssertTrue(try VerifyWorkspace.findings(passing).contains("apache.error-page-proxied:14"), passing.stdout)
        XCTAssertFalse(try VerifyWorkspace.findings(passing).contains("apache.error-page-missing-file:14"), passing.stdout)
        XCTAssertEqual(try VerifyWorkspace.answer(passing, "/", "answering 500")?.body, "the upstream's own body")
        // The worker's own timeout is shortened too: Apache gives a silent upstream up itself.
        XCTAssertEqual(try VerifyWorkspace.answer(passing, "/", "slower than the timeout")?.status, 502, passing.stdout)
        let refused = try verify(head + "<VirtualHost *:80>\n    ProxyPas / http://10.0.0.5:8080/\n</VirtualHost>\n")
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertEqual(try VerifyWorkspace.findings(refused), ["apache.syntax:14"])
    }

    /// mod_proxy_fcgi answers a FastCGI upstream's unreadable header with an empty 500 itself,
    /// past every ErrorDocument: seen on the real Apache, said as not probed, not judged as a
    /// code left uncovered.
    func testAFastCGIUpstreamsUnreadableHeaderIsAnEmpty500NoPageReplaces() throws {
        let result = try verify(
            head
                + """
                LoadModule proxy_fcgi_module /usr/lib/apache2/modules/mod_proxy_fcgi.so
                <VirtualHost *:80>
                    ServerName php.example
                    Alias /errors/ /usr/share/detour/errors/
                    ErrorDocument 500 /errors/500.html
                    ErrorDocument 503 /errors/503.html
                    <Location /app>
                        SetHandler "proxy:unix:/run/php/php8.2-fpm.sock|fcgi://localhost"
                    </Location>
                </VirtualHost>

                """)
        let unreadable = try XCTUnwrap(try VerifyWorkspace.answer(result, "/app", "sending a header no proxy can read"), result.stdout)
        XCTAssertEqual(unreadable.status, 500)
        XCTAssertEqual(unreadable.body, "an empty body")
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/app", "not listening")?.body, "detour's public/errors/503.html")
        XCTAssertTrue(try VerifyWorkspace.texts(result, "not_probed").contains { $0.contains("no ErrorDocument replaces it") }, result.stdout)
        let diagnostics = try VerifyWorkspace.report(result)["diagnostics"] as? [[String: Any]] ?? []
        let uncovered = diagnostics.first { $0["rule"] as? String == "apache.code-not-covered" }?["message"] as? String ?? ""
        XCTAssertFalse(uncovered.contains("500"), uncovered)
    }

    /// A port no virtual host takes (`Listen 8443` beside `<VirtualHost *:80>`) is answered by
    /// the main server: its built-in pages are named at the configuration's first line, and
    /// `detour check` names the main server there too.
    func testAPortNoVirtualHostTakesIsAnsweredByTheMainServer() throws {
        try workspace.folder.write([
            "conf/apache2.conf": head
                + "Listen 8443\nProxyPass /app/ http://10.0.0.5:8080/\n<VirtualHost *:80>\n    ServerName shop.example\n</VirtualHost>\n"
        ])
        let result = try workspace.detour([
            "verify", "apache", "conf/apache2.conf", "--pages", "public/errors", "--map", "/usr/share/detour=public", "--timeout", "5", "--format", "json",
            "--compare-check",
        ])
        XCTAssertTrue(try VerifyWorkspace.findings(result).contains("apache.code-not-covered:1"), result.stdout + result.stderr)
        XCTAssertTrue(try VerifyWorkspace.findings(result).contains("apache.code-not-covered:15"), result.stdout)
        XCTAssertTrue(result.stdout.contains("\"check_disagreements\" : [\n\n  ]"), result.stdout)
    }

    /// A virtual host on a port no Listen opens (an SKS keyserver's `*:11371`, a copied
    /// `ports.conf` left behind): Apache starts and serves nothing there, and verify probes the
    /// ports it does open instead of giving up.
    func testAVirtualHostPortNoListenOpensIsNotProbed() throws {
        let result = try verify(
            head + "<VirtualHost *:80 *:11371>\n    ServerName keys.example\n    ProxyPass / http://10.0.0.5:11371/\n</VirtualHost>\n")
        XCTAssertFalse(result.stderr.contains("did not listen"), result.stderr)
        XCTAssertTrue(try VerifyWorkspace.findings(result).contains("apache.code-not-covered:13"), result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("no Listen opens"), result.stdout)
    }

    /// A ProxyErrorOverride whose status list leaves a code out lets the upstream's own page for
    /// it through: named at that line, as `detour check` names it, not at the ProxyPass.
    func testAnOverrideListThatLeavesACodeOutIsNamedAtItsLine() throws {
        let result = try verify(
            head
                + """
                <VirtualHost *:80>
                    ServerName api.example
                    ProxyPass /errors/ !
                    Alias /errors/ /usr/share/detour/errors/
                    ErrorDocument 503 /errors/503.html
                    ErrorDocument 502 /errors/502.html
                    ProxyPass / http://10.0.0.5:8080/
                    ProxyErrorOverride On 502
                </VirtualHost>

                """)
        XCTAssertTrue(try VerifyWorkspace.findings(result).contains("apache.upstream-errors-pass-through:20"), result.stdout)
        XCTAssertFalse(try VerifyWorkspace.findings(result).contains("apache.upstream-errors-pass-through:19"), result.stdout)
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "answering 503")?.body, "the upstream's own body")
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "answering 502")?.body, "detour's public/errors/502.html")
    }

    /// A `[P]` rule whose substitution follows the port (`http://app:8181%{REQUEST_URI}`)
    /// keeps its path in the sandbox; without `ProxyErrorOverride` every error of the
    /// upstream passes, one cause named at the host's proxying line, a `<Location>` that
    /// does not proxy included; a 504 Apache never raises for an HTTP upstream is not a code
    /// without a page. A page whose file is not there goes to the upstream by the same rule:
    /// its file is missing.
    func testARewriteProxyPassesErrorsAtItsLine() throws {
        let result = try verify(
            head
                + """
                LoadModule rewrite_module /usr/lib/apache2/modules/mod_rewrite.so
                <VirtualHost *:80>
                    ServerName git.example
                    DocumentRoot /usr/share/detour
                    <Location /status>
                        Require all granted
                    </Location>
                    RewriteEngine on
                    RewriteCond %{DOCUMENT_ROOT}/%{REQUEST_FILENAME} !-f
                    RewriteRule .* http://10.0.0.5:8181%{REQUEST_URI} [P,QSA,NE]
                    ErrorDocument 500 /errors/500.html
                    ErrorDocument 502 /errors/gone.html
                    ErrorDocument 503 /errors/503.html
                    ErrorDocument 504 /errors/504.html
                </VirtualHost>

                """)
        XCTAssertEqual(
            try VerifyWorkspace.findings(result), ["apache.upstream-errors-pass-through:22", "apache.error-page-missing-file:24"], result.stdout + result.stderr
        )
        XCTAssertTrue(result.stdout.contains("its file is missing, and asked for, /errors/gone.html is answered by the upstream"), result.stdout)
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "answering 200")?.status, 200, "the path after the port is kept")
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/status", "answering 504")?.body, "the upstream's own body")
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "not listening")?.body, "detour's public/errors/503.html")
    }

    /// A `[P]` rule with no RewriteCond on files takes the page whether its file is there or
    /// not: the page is the upstream's, not a missing one.
    func testARewriteThatTakesEverythingProxiesAPageWhoseFileIsMissing() throws {
        let result = try verify(
            head
                + """
                LoadModule rewrite_module /usr/lib/apache2/modules/mod_rewrite.so
                <VirtualHost *:80>
                    ServerName shop.example
                    Alias /errors/ /usr/share/detour/errors/
                    RewriteEngine on
                    RewriteRule ^/(.*)$ http://10.0.0.5:8080/$1 [P]
                    ProxyErrorOverride On
                    ErrorDocument 503 /errors/gone.html
                </VirtualHost>

                """)
        let findings = try VerifyWorkspace.findings(result)
        XCTAssertTrue(findings.contains("apache.error-page-proxied:20"), result.stdout + result.stderr)
        XCTAssertFalse(findings.contains("apache.error-page-missing-file:20"), "\(findings)")
    }

    /// `ProxyPassMatch` in a `<LocationMatch>` names only the URL: it is the fake upstream too,
    /// and a path its expression matches is asked for; with `ProxyErrorOverride on` and one
    /// ErrorDocument, the other codes get Apache's own page.
    func testAProxyPassMatchInItsSection() throws {
        let result = try verify(
            head
                + """
                LoadModule proxy_fcgi_module /usr/lib/apache2/modules/mod_proxy_fcgi.so
                <VirtualHost *:80>
                    ServerName php.example
                    Alias /errors/ /usr/share/detour/errors/
                    <LocationMatch "^/app/(.*\\.php)$">
                        ProxyPassMatch "fcgi://127.0.0.1:9000/srv/app/$1"
                        ProxyErrorOverride on
                        ErrorDocument 503 /errors/503.html
                    </LocationMatch>
                </VirtualHost>

                """)
        XCTAssertEqual(try VerifyWorkspace.findings(result), ["apache.code-not-covered:14"], result.stdout + result.stderr)
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/app/a.php", "answering 500")?.body, "the server's own error page", result.stdout)
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/app/a.php", "not listening")?.body, "detour's public/errors/503.html")
        let rewrites = try VerifyWorkspace.texts(result, "rewrites")
        XCTAssertTrue(rewrites.contains { $0.hasPrefix("ProxyPassMatch fcgi://127.0.0.1:9000/srv/app/$1: fcgi://127.0.0.1:") }, "\(rewrites)")
    }

    /// A ProxyPass to a unix socket (`unix:/run/app.sock|http://app/`, as Debian's radicale
    /// ships it) is asked through the fake upstream: the socket goes with the rewrite, so the
    /// upstream answers, and a site whose every path goes to it fetches its page from it.
    func testAProxyPassToAUnixSocket() throws {
        let result = try verify(
            head
                + """
                <VirtualHost *:80>
                    ServerName calendar.example
                    Alias /errors/ /usr/share/detour/errors/
                    ErrorDocument 503 /errors/503.html
                    <LocationMatch "^/.*">
                        ProxyPass "unix:/run/app/socket|http://calendar/"
                    </LocationMatch>
                </VirtualHost>

                """)
        XCTAssertEqual(
            try VerifyWorkspace.findings(result), ["apache.code-not-covered:13", "apache.error-page-proxied:16", "apache.upstream-errors-pass-through:18"],
            result.stdout + result.stderr)
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "answering 200")?.status, 200, result.stdout)
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "answering 200")?.body, "the upstream's own body")
        let rewrites = try VerifyWorkspace.texts(result, "rewrites")
        XCTAssertTrue(rewrites.contains { $0.hasPrefix("ProxyPass unix:/run/app/socket|http://calendar/: http://127.0.0.1:") }, "\(rewrites)")
    }
    /// A ProxyPassMatch at the host is asked a path it matches; an ErrorDocument to a URL
    /// answers the upstream's failure with a redirect, named at its line; the main server's
    /// page for a code the host names its own for is never sent there, so not judged.
    func testARedirectingErrorDocumentAndAMainServerPageTheHostReplaces() throws {
        let result = try verify(
            head
                + """
                ErrorDocument 502 /errors/missing-502.html
                <VirtualHost *:80>
                    ServerName shop.example
                    Alias /errors/ /usr/share/detour/errors/
                    ProxyPassMatch ^/app/(.*)$ http://10.0.0.5:8080/app/$1
                    ProxyErrorOverride On
                    ErrorDocument 502 /errors/502.html
                    ErrorDocument 503 https://status.example/503.html
                </VirtualHost>

                """)
        XCTAssertEqual(
            try VerifyWorkspace.findings(result).sorted(), ["apache.code-not-covered:14", "apache.error-document-url:20"], result.stdout + result.stderr)
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/app/a", "answering 503")?.status, 302, result.stdout)
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/app/a", "answering 502")?.body, "detour's public/errors/502.html", result.stdout)
    }

    /// The main server's page for a 502 is sent only where a proxied path has no page of its
    /// `<Location>`'s own for it: refused there, it is no finding (nor in `detour check`); once a
    /// second proxied path falls outside that `<Location>`, its refusal is one.
    func testAServerPageOnlyLocationPagesReplaceIsNotJudgedButOneAProxiedPathMeetsIs() throws {
        func config(_ also: String) -> String {
            head
                + """
                Alias /errors/ /usr/share/detour/errors/
                ErrorDocument 502 /errors/502.html
                <VirtualHost *:80>
                    ServerName shop.example
                    <Location /errors/>
                        Require all denied
                    </Location>
                    ProxyPass /app/ http://10.0.0.5:8080/app/
                \(also)
                    ProxyErrorOverride On
                    <Location /app/>
                        ErrorDocument 502 "the shop is restarting"
                    </Location>
                </VirtualHost>

                """
        }
        let covered = try verify(config(""), extra: ["--compare-check"])
        XCTAssertFalse(try VerifyWorkspace.findings(covered).contains("apache.error-page-protected:14"), covered.stdout + covered.stderr)
        XCTAssertEqual(try VerifyWorkspace.disagreements(covered), [], covered.stdout)
        let uncovered = try verify(config("    ProxyPass /api/ http://10.0.0.5:8080/api/"), extra: ["--compare-check"])
        let found = try VerifyWorkspace.findings(uncovered)
        XCTAssertTrue(found.contains("apache.error-page-protected:14"), "\(found) \(uncovered.stdout)")
        XCTAssertEqual(try VerifyWorkspace.disagreements(uncovered), [], uncovered.stdout)
    }
}
