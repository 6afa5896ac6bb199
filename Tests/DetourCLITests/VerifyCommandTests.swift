import DetourTestSupport
import Foundation
import XCTest

/// `detour verify nginx` on small configurations written as operators write them: the real
/// nginx runs on the sandboxed copy, and what it answered decides the findings.
final class VerifyCommandTests: XCTestCase {
    private var workspace: VerifyWorkspace!
    private var folder: TemporaryFolder { workspace.folder }
    /// The sandboxes go here, so a test sees what a run leaves behind.
    private var scratch: TemporaryFolder { workspace.scratch }

    override func setUpWithError() throws {
        workspace = try VerifyWorkspace(server: "nginx")
    }

    override func tearDown() {
        workspace?.remove()
    }

    /// `server` blocks in an http block, the way a site's file is included from nginx.conf.
    private func write(_ servers: String) throws {
        try folder.write(["conf/nginx.conf": "user www-data;\npid /run/nginx.pid;\nevents {}\nhttp {\n    include \(folder.path)/conf/sites/*.conf;\n}\n"])
        try folder.write(["conf/sites/site.conf": servers])
    }

    private func verify(_ servers: String, map: Bool = true, extra: [String] = []) throws -> ProcessResult {
        try write(servers)
        let arguments =
            ["verify", "nginx", "conf/nginx.conf", "--pages", "public/errors", "--format", "json"] + (map ? ["--map", "/usr/share/detour=public"] : [])
            + extra
        return try ProcessRunner.run(Repository.detourExecutable, arguments, in: folder.url, environment: environment)
    }

    private var environment: [String: String] { workspace.environment }

    private func findings(_ result: ProcessResult) throws -> [(rule: String, line: Int)] {
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], result.stderr)
        let diagnostics = try XCTUnwrap(report["diagnostics"] as? [[String: Any]])
        return diagnostics.map { (($0["rule"] as? String) ?? "", (($0["location"] as? [String: Any])?["line"] as? Int) ?? 0) }
    }

    private let pagesSnippet = """
        error_page 500 502 503 504 /errors/$status.html;
        location /errors/ { root /usr/share/detour; internal; }
        """

    func testACoveredSiteIsCleanAndEveryFailureGetsItsPage() throws {
        let result = try verify(
            """
            server {
                listen 443 ssl http2;
                server_name shop.example;
                ssl_certificate /etc/ssl/shop.pem;
                ssl_certificate_key /etc/ssl/shop.key;
                \(pagesSnippet)
                location / { proxy_pass https://app.internal:8443; proxy_intercept_errors on; proxy_read_timeout 120s; }
            }
            """)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(try findings(result).map(\.rule), [])
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let all = try XCTUnwrap(report["observations"] as? [[String: Any]]).filter { $0["path"] as? String == "/" }
        let answers = all.filter { $0["method"] as? String == "GET" }
        let posted = all.first { $0["method"] as? String == "POST" && $0["upstream"] as? String == "not listening" }
        XCTAssertEqual(posted?["status"] as? Int, 502, "a form sent while the upstream is down")
        XCTAssertEqual(posted?["body"] as? String, "detour's public/errors/502.html")
        let head = all.first { $0["method"] as? String == "HEAD" && $0["upstream"] as? String == "answering 503" }
        XCTAssertEqual(head?["status"] as? Int, 503)
        let byMode = Dictionary(answers.map { ($0["upstream"] as? String ?? "", ($0["status"] as? Int ?? 0, $0["body"] as? String ?? "")) }) { first, _ in first
        }
        XCTAssertEqual(byMode["answering 200"]?.0, 200)
        XCTAssertEqual(byMode["not listening"]?.0, 502)
        XCTAssertEqual(byMode["not listening"]?.1, "detour's public/errors/502.html")
        XCTAssertEqual(byMode["answering 503"]?.1, "detour's public/errors/503.html")
        XCTAssertEqual(byMode["slower than the timeout"]?.0, 504, "the 120 s timeout was shortened")
        let rewrites = try XCTUnwrap(report["rewrites"] as? [[String: Any]]).compactMap { $0["text"] as? String }
        for rewritten in [
            "listen 443 ssl http2", "ssl_certificate", "proxy_pass https://app.internal:8443", "proxy_read_timeout 120s", "pid", "user", "include /",
        ] {
            XCTAssertTrue(rewrites.contains { $0.hasPrefix(rewritten) }, "\(rewritten) is listed among \(rewrites)")
        }
    }

    func testASiteWithoutPagesIsNotCoveredWhereCheckSaysSo() throws {
        let result = try verify("server {\n    listen 80;\n    server_name bare.example;\n    location /api/ { proxy_pass http://10.0.0.9:8080; }\n}\n")
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(try findings(result).map(\.rule), ["nginx.code-not-covered"])
        XCTAssertEqual(try findings(result).map(\.line), [1], "at the server, as detour check reports it")
        let check = try ProcessRunner.detour(
            ["check", "nginx", "conf/nginx.conf", "--pages", "public/errors", "--map", "/usr/share/detour=public", "--format", "json"], in: folder.url)
        XCTAssertEqual(try findings(check).map(\.rule), ["nginx.code-not-covered"])
    }

    func testTheUpstreamsOwnErrorsPassWithoutIntercepting() throws {
        let result = try verify("server {\n    server_name app.example;\n    \(pagesSnippet)\n    location / { proxy_pass http://127.0.0.1:3000; }\n}\n")
        XCTAssertEqual(try findings(result).map(\.rule), ["nginx.upstream-errors-pass-through"])
        XCTAssertEqual(try findings(result).map(\.line), [5], "at the location that proxies")
        XCTAssertTrue(result.stdout.contains("reach visitors as it wrote it"), result.stdout)
    }

    /// A location that hands each method to a proxy_pass of its own, inside `if` blocks: a page
    /// read meets one, a form the other, and each passes the application's errors at its own
    /// line, where check names them too. The near miss's `if` on the method has no proxy_pass:
    /// a form meets the location's own, as nginx's `if` inherits it.
    func testAProxyPassInsideAnIfOnTheMethodIsNamedWhereTheMethodMeetsIt() throws {
        let servers =
            "server {\n    server_name app.example;\n    \(pagesSnippet)\n    location = /upload {\n        if ($request_method = GET) {\n            proxy_pass http://127.0.0.1:3001;\n        }\n        if ($request_method = POST) {\n            proxy_pass http://127.0.0.1:3002;\n        }\n    }\n    location / {\n        if ($request_method = POST) {\n            add_header X-Form sent;\n        }\n        proxy_pass http://127.0.0.1:3000;\n    }\n}\n"
        let result = try verify(servers, extra: ["--compare-check"])
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], result.stderr)
        XCTAssertEqual(try findings(result).filter { $0.rule == "nginx.upstream-errors-pass-through" }.map(\.line).sorted(), [7, 10, 17], result.stdout)
        XCTAssertEqual(try XCTUnwrap(report["check_disagreements"] as? [[String: Any]]).count, 0, result.stdout)
    }

    /// A site's file verified by itself, as `detour check` reads it: nginx runs it inside an
    /// http block, its relative include from the folder of the nginx.conf above it, its
    /// upstream block at its top; the failures meet the snippet's pages, and the near miss (an
    /// include that folder lacks) is nginx's refusal at its line.
    func testASitesFileRunsInsideAnHTTPBlockWithItsIncludesFromTheServersFolder() throws {
        try write("")
        try folder.write(["conf/snippets/errors.conf": pagesSnippet + "\n"])
        let site =
            "upstream app { server 10.2.2.2:8080; }\nserver {\n    listen 80;\n    server_name site.example;\n    include snippets/errors.conf;\n    location / { proxy_pass http://app; proxy_intercept_errors on; }\n}\n"
        try folder.write(["conf/sites/site.conf": site])
        let arguments = ["verify", "nginx", "conf/sites/site.conf", "--pages", "public/errors", "--format", "json", "--map", "/usr/share/detour=public"]
        let result = try ProcessRunner.run(Repository.detourExecutable, arguments + ["--compare-check"], in: folder.url, environment: environment)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(try findings(result).map(\.rule), [])
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let down = try XCTUnwrap(report["observations"] as? [[String: Any]]).first {
            $0["path"] as? String == "/" && $0["method"] as? String == "GET" && $0["upstream"] as? String == "not listening"
        }
        XCTAssertEqual(down?["status"] as? Int, 502, result.stdout)
        XCTAssertEqual(down?["body"] as? String, "detour's public/errors/502.html")
        XCTAssertEqual(try XCTUnwrap(report["check_disagreements"] as? [[String: Any]]).count, 0, result.stdout)
        try folder.write(["conf/sites/site.conf": site.replacingOccurrences(of: "snippets/errors.conf", with: "snippets/gone.conf")])
        let missing = try ProcessRunner.run(Repository.detourExecutable, arguments, in: folder.url, environment: environment)
        XCTAssertEqual(try findings(missing).map(\.rule), ["nginx.include-missing"], missing.stdout)
        XCTAssertEqual(try findings(missing).map(\.line), [5])
    }

    func testAPageThatIsNotThereAndAPageSentWithSuccess() throws {
        let missing = try verify(
            "server {\n    server_name a.example;\n    \(pagesSnippet)\n    location / { proxy_pass http://app; proxy_intercept_errors on; }\n}\nupstream app { server 10.1.1.1:80 max_fails=3; }\n",
            map: false)
        XCTAssertEqual(try findings(missing).map(\.rule), ["nginx.error-page-missing-file"], missing.stdout)
        let soft = try verify(
            "server {\n    server_name b.example;\n    error_page 502 =200 /errors/502.html;\n    location /errors/ { root /usr/share/detour; }\n    location / { proxy_pass http://app:80; }\n}\n"
        )
        XCTAssertTrue(try findings(soft).map(\.rule).contains("nginx.error-page-soft-status"), soft.stdout)
    }

    func testWhatNginxRefusesIsAFindingAtItsLine() throws {
        let typo = try verify("server {\n    listen 80;\n    proxy_passs http://app;\n}\n")
        XCTAssertEqual(typo.status, 1, typo.stderr)
        XCTAssertEqual(try findings(typo).map(\.rule), ["nginx.directive"])
        XCTAssertEqual(try findings(typo).map(\.line), [3], "the site's own line, not its sandbox copy's")
        XCTAssertTrue(typo.stdout.contains("unknown directive \\\"proxy_passs\\\""), typo.stdout)
        // Directives without their arguments: nothing of them is rewritten, nginx says what is
        // wrong, one at a time; each refused statement blanked, it names the next.
        let bare = try verify("server {\n    listen;\n    root;\n    access_log;\n    location / { proxy_pass; }\n}\n")
        XCTAssertEqual(bare.status, 1, bare.stderr)
        XCTAssertEqual(try findings(bare).map(\.rule), ["nginx.directive", "nginx.directive", "nginx.directive", "nginx.directive"])
        XCTAssertEqual(try findings(bare).map(\.line), [2, 3, 4, 5])
        // A block out of place is blanked whole; the brace an extra one leaves is its echo, not a refusal of its own.
        let brace = try verify("server {\n    listen 80;\n    }\n    location /app { return 200; }\n}\n")
        XCTAssertEqual(try findings(brace).map(\.line), [4], brace.stdout)
        XCTAssertEqual(try findings(brace).map(\.rule), ["nginx.directive"])
        // The certificate `listen … ssl` needs may have stood in the include that could not be
        // read: nginx's complaint once that include is blanked is not a refusal of its own.
        let snakeoil = try verify("server {\n    listen 443 ssl;\n    include snippets/snakeoil.conf;\n    return 200;\n}\n")
        XCTAssertEqual(try findings(snakeoil).map(\.rule), ["nginx.include-missing"], snakeoil.stdout)
        XCTAssertEqual(try findings(snakeoil).map(\.line), [3])
    }

    func testAnErrorPageAskedForDirectlyIsThereAndNotForVisitors() throws {
        let site =
            "server {\n    server_name static.example;\n    error_page 500 502 503 504 /50x.html;\n    location = /50x.html { root /usr/share/detour/errors; }\n}\n"
        let missing = try verify(site)
        // Its location is not internal either: once the file is there, visitors get it too.
        XCTAssertEqual(try findings(missing).map(\.rule), ["nginx.error-page-missing-file", "nginx.error-page-not-internal"], missing.stdout)
        XCTAssertEqual(try findings(missing).map(\.line), [3, 4], "at the error_page that names it, and at its location")
        try folder.write(["public/errors/50x.html": "<p>a page of the site's own</p>\n"])
        let reachable = try verify(site)
        XCTAssertEqual(try findings(reachable).map(\.rule), ["nginx.error-page-not-internal"], reachable.stdout)
        XCTAssertEqual(try findings(reachable).map(\.line), [4], "at the location that serves it")
        XCTAssertEqual(reachable.status, 0, "a note")
    }

    func testAConfigurationForNGINXPlusIsRefusedAndStillRunAsPlusWouldServeIt() throws {
        // This nginx refuses Plus's `status_zone` and `resolve`: each is reported (a parameter
        // blanked alone, its upstream keeping its server), then the rest runs, as check judges it.
        let result = try verify(
            """
            upstream app {
                zone app 64k;
                server app.internal:8080 resolve;
            }
            upstream api { zone api 64k;
            }
            server {
                server_name plus.example;
                status_zone plus;
                location / { proxy_pass http://app; }
                location /api/ { proxy_pass http://api; }
            }
            """)
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        let found = try findings(result)
        // `api`'s servers come through Plus's API: this nginx refuses it empty, and it gets the fake one.
        XCTAssertEqual(found.filter { $0.rule == "nginx.directive" }.map(\.line), [3, 6, 9], result.stdout)
        XCTAssertEqual(found.filter { $0.rule == "nginx.code-not-covered" }.map(\.line), [7], "what visitors get, once Plus's lines are set aside")
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let api = try XCTUnwrap(report["observations"] as? [[String: Any]]).filter {
            $0["path"] as? String == "/api/" && $0["upstream"] as? String == "answering 503"
        }
        XCTAssertEqual(api.compactMap { $0["status"] as? Int }, [503, 503, 503], "the empty upstream answers through the fake one")
    }

    func testAPHPApplicationBehindFastCGIFailsLikeOneBehindHTTP() throws {
        // The fake upstream speaks FastCGI where fastcgi_pass goes: the application's own 500
        // passes (fastcgi_intercept_errors is off), nginx's 502 gets the page.
        let result = try verify(
            """
            server {
                server_name php.example;
                \(pagesSnippet)
                location / {
                    fastcgi_pass unix:/run/php/php8.2-fpm.sock;
                    fastcgi_param REQUEST_URI $request_uri;
                }
            }
            """)
        XCTAssertTrue(result.stdout.contains("fastcgi_pass unix:/run/php/php8.2-fpm.sock: the fake upstream (fastcgi)"), result.stdout)
        XCTAssertEqual(try findings(result).map(\.rule), ["nginx.upstream-errors-pass-through"], result.stdout)
        XCTAssertEqual(try findings(result).map(\.line), [6], "at the fastcgi_pass")
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let gets = try XCTUnwrap(report["observations"] as? [[String: Any]]).filter { $0["method"] as? String == "GET" && $0["path"] as? String == "/" }
        XCTAssertEqual(
            gets.map { "\($0["upstream"] ?? "") \($0["status"] ?? "") \($0["body"] ?? "")" },
            [
                "answering 200 200 the upstream's own body", "not listening 502 detour's public/errors/502.html", "answering 500 500 the upstream's own body",
                "answering 502 502 the upstream's own body", "answering 503 503 the upstream's own body", "answering 504 504 the upstream's own body",
                "slower than the timeout 504 detour's public/errors/504.html", "closing mid-body 200 the upstream's own body",
                "sending a header no proxy can read 502 detour's public/errors/502.html",
            ])
    }

    func testAPageBehindAnAccessRuleIsProtectedUnlessTheWholeSiteIs() throws {
        try folder.write(["public/errors/50x.html": "<p>a page of the site's own</p>\n"])
        let denied = try verify(
            "server {\n    server_name static.example;\n    error_page 502 /50x.html;\n    location = /50x.html { root /usr/share/detour/errors; deny all; }\n}\n"
        )
        XCTAssertEqual(try findings(denied).map(\.rule), ["nginx.error-page-not-internal", "nginx.error-page-protected"], denied.stdout)
        XCTAssertEqual(try findings(denied).map(\.line), [4, 4])
        // A password on the whole site: whoever meets an error has given it, the page included.
        let everywhere = try verify(
            "server {\n    server_name static.example;\n    auth_basic staging;\n    auth_basic_user_file /etc/nginx/htpasswd;\n    error_page 502 /50x.html;\n    location = /50x.html { root /usr/share/detour/errors; }\n}\n"
        )
        XCTAssertEqual(try findings(everywhere).map(\.rule), ["nginx.error-page-not-internal"], everywhere.stdout)
    }

    func testAnInterceptedErrorWithoutAPageIsNamedAtItsUpstream() throws {
        // Intercepting is on, but only 502 has a page: the application's own 500 and 503 pass.
        let result = try verify(
            "server {\n    server_name app.example;\n    error_page 502 /errors/502.html;\n    location /errors/ { root /usr/share/detour; internal; }\n    location / {\n        proxy_pass http://app:80;\n        proxy_intercept_errors on;\n    }\n}\n"
        )
        let found = try findings(result)
        XCTAssertEqual(found.filter { $0.rule == "nginx.intercepted-code-without-page" }.map(\.line), [6], result.stdout)
        XCTAssertEqual(found.filter { $0.rule == "nginx.code-not-covered" }.map(\.line), [1], result.stdout)
    }

    /// PHP in /srv/app behind a regular-expression location whose try_files looks for the script.
    private var phpSite: String {
        """
        server {
            server_name php.example;
            root /srv/app;
            \(pagesSnippet)
            location ~ \\.php$ {
                try_files $uri =404;
                fastcgi_pass unix:/run/php/php8.2-fpm.sock;
                fastcgi_param REQUEST_URI $request_uri;
            }
        }
        """
    }

    func testAMappedApplicationFolderGetsTheScriptsInItsCopyNeverInTheUsersFolder() throws {
        // As root the mapped folder is copied into the sandbox: the script try_files looks for
        // is made in the copy, where the local folder (the site's static files) lacks it.
        try folder.write(["site/index.html": "<p>home</p>\n"])
        let result = try verify(phpSite, extra: ["--map", "/srv/app=site"])
        if getuid() == 0 {
            XCTAssertTrue(result.stdout.contains("/srv/app/a.php: an empty file in the sandbox's copy of the mapped folder"), result.stdout)
            XCTAssertEqual(try findings(result).map(\.rule), ["nginx.upstream-errors-pass-through"], result.stdout)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("site/a.php").path), "the user's folder is never written")
    }

    func testAnUnmappedApplicationFolderHoldsTheScriptsItsTryFilesLooksFor() throws {
        // /srv/app is not mapped: the sandbox's stand-in holds an empty index.php, as the
        // deployment does, so try_files lets the request through to PHP.
        let result = try verify(phpSite)
        XCTAssertTrue(result.stdout.contains("/srv/app/a.php: an empty file in the unmapped folder"), result.stdout)
        XCTAssertEqual(try findings(result).map(\.rule), ["nginx.upstream-errors-pass-through"], result.stdout)
        XCTAssertEqual(try findings(result).map(\.line), [8], "at the fastcgi_pass")
    }

    func testAFailureAnsweredAsASuccessIsNamedAtTheLineThatTurnsIt() throws {
        // `=200` turns nginx's 502 into a success with the site's own maintenance page.
        try folder.write(["public/errors/maintenance.html": "<p>back soon</p>\n"])
        let result = try verify(
            "server {\n    server_name app.example;\n    error_page 502 =200 /maintenance.html;\n    location = /maintenance.html { root /usr/share/detour/errors; internal; }\n    location / { proxy_pass http://app:80; }\n}\n"
        )
        XCTAssertEqual(try findings(result).filter { $0.rule == "nginx.error-page-soft-status" }.map(\.line), [3], result.stdout)
        XCTAssertTrue(result.stdout.contains("detour's error page goes out with status 200"), result.stdout)
    }

    func testAStreamBlockIsLoadedWhereNginxHasItsModuleAndSetAsideWhereNot() throws {
        // The test's nginx.conf loads no module: Debian's nginx then has no `stream` (built in
        // at nginx.org). With libnginx-mod-stream installed the sandbox loads it and nginx reads
        // the block; without, the block is set aside. Streams are not probed; the http site is.
        try folder.write([
            "conf/nginx.conf":
                "events {}\nhttp {\n    include \(folder.path)/conf/sites/*.conf;\n}\nstream {\n    server { listen 3306; proxy_pass 10.0.0.5:3306; }\n}\n"
        ])
        try folder.write(["conf/sites/site.conf": "server {\n    server_name app.example;\n    location / { proxy_pass http://app:80; }\n}\n"])
        let result = try ProcessRunner.run(
            Repository.detourExecutable, ["verify", "nginx", "conf/nginx.conf", "--pages", "public/errors", "--format", "json"], in: folder.url,
            environment: environment)
        XCTAssertEqual(try findings(result).map(\.rule), ["nginx.code-not-covered"], result.stdout + result.stderr)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let notProbed = try XCTUnwrap(report["not_probed"] as? [[String: Any]]).compactMap { $0["text"] as? String }
        let rewrites = try XCTUnwrap(report["rewrites"] as? [[String: Any]]).compactMap { $0["text"] as? String }
        if try nginxHasStreamModule() {
            XCTAssertTrue(
                rewrites.contains {
                    $0.hasPrefix("load_module ") && $0.hasSuffix("ngx_stream_module.so added: stream {…} needs it, a dynamic module of this nginx")
                }, "\(rewrites)")
            XCTAssertTrue(rewrites.contains { $0.hasSuffix("a free port, not probed") }, "\(rewrites)")
        } else {
            XCTAssertTrue(notProbed.contains { $0.hasPrefix("stream {…}: this nginx does not load ngx_stream_module") }, "\(notProbed)")
        }
    }

    /// Whether this machine's nginx has ngx_stream_module as a file it can load (Debian's
    /// libnginx-mod-stream), which `.ci/run` installs.
    private func nginxHasStreamModule() throws -> Bool {
        let output = try ProcessRunner.run(RequiredTool.find("nginx"), ["-V"]).stderr
        let folder = output.split(whereSeparator: \.isWhitespace).first { $0.hasPrefix("--modules-path=") }?.dropFirst("--modules-path=".count)
        let present = folder.map { FileManager.default.fileExists(atPath: $0 + "/ngx_stream_module.so") } ?? false
        if !present, ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail("libnginx-mod-stream is not installed (required under CI=true)") }
        return present
    }

    func testAStreamBlocksRefusalIsFoundOnceItsModuleIsLoaded() throws {
        guard try nginxHasStreamModule() else { throw XCTSkip("nginx has no ngx_stream_module here") }
        // NGINX Plus's `status_zone` in a stream server: Debian's nginx refuses it only once the
        // stream block is read at all.
        try folder.write([
            "conf/nginx.conf":
                "events {}\nhttp {\n    server { listen 8080; location / { proxy_pass http://app:80; } }\n}\nstream {\n    server {\n        listen 3306;\n        status_zone db;\n        proxy_pass 10.0.0.5:3306;\n    }\n}\n"
        ])
        let result = try ProcessRunner.run(
            Repository.detourExecutable, ["verify", "nginx", "conf/nginx.conf", "--pages", "public/errors", "--format", "json"], in: folder.url,
            environment: environment)
        XCTAssertEqual(try findings(result).filter { $0.rule == "nginx.directive" }.map(\.line), [8], result.stdout + result.stderr)
    }

    func testASiteThatSendsPlainHTTPToHTTPSIsJudgedOverTLS() throws {
        // The redirect answers every plain probe; visitors meet the upstream's failures over TLS.
        let result = try verify(
            "server {\n    listen 80;\n    listen 443 ssl;\n    server_name app.example;\n    ssl_certificate /etc/letsencrypt/live/app/fullchain.pem;\n    ssl_certificate_key /etc/letsencrypt/live/app/privkey.pem;\n    if ($scheme != \"https\") { return 301 https://$host$request_uri; }\n    location / { proxy_pass http://app:80; }\n}\n"
        )
        XCTAssertEqual(try findings(result).map(\.rule), ["nginx.code-not-covered"], result.stdout + result.stderr)
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "not listening", scheme: "http")?.status, 301)
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "not listening", scheme: "https")?.status, 502)
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "not listening", scheme: "https")?.body, "the server's own error page")
    }

    func testEverySyntaxErrorOnALineOfItsOwnIsFoundInOneRun() throws {
        // nginx stops at its first; the refused line is blanked and its test asked again. A
        // line with a brace is not blanked: the block it opens or closes would be unbalanced.
        let config = { (location: String) in
            "events {}\nhttp {\n    server {\n        listen 80;\n        server_name \"app\"x;\n        \(location)\n        add_header X-A \"a\"b;\n    }\n}\n"
        }
        try folder.write(["conf/nginx.conf": config("location / { proxy_pass http://app:80; }")])
        let both = try ProcessRunner.run(
            Repository.detourExecutable, ["verify", "nginx", "conf/nginx.conf", "--pages", "public/errors", "--format", "json"], in: folder.url,
            environment: environment)
        XCTAssertEqual(try findings(both).map { "\($0.rule):\($0.line)" }, ["nginx.syntax:5", "nginx.syntax:7"], both.stdout + both.stderr)
        try folder.write(["conf/nginx.conf": config("location \"/a\"b { proxy_pass http://app:80; }")])
        let first = try ProcessRunner.run(
            Repository.detourExecutable, ["verify", "nginx", "conf/nginx.conf", "--pages", "public/errors", "--format", "json"], in: folder.url,
            environment: environment)
        XCTAssertEqual(try findings(first).map { "\($0.rule):\($0.line)" }, ["nginx.syntax:5", "nginx.syntax:6"], first.stdout + first.stderr)
    }

    func testAHeaderAddedToSuccessesOnlyIsMissingFromThePages() throws {
        let site = { (always: String) in
            "server {\n    server_name app.example;\n    add_header Strict-Transport-Security \"max-age=31536000\"\(always);\n    error_page 502 504 /errors/$status.html;\n    location /errors/ { root /usr/share/detour; internal; }\n    location / { proxy_pass http://app:80; proxy_intercept_errors on; }\n}\n"
        }
        // The application's 200 carries it; nginx's 502 with detour's page does not.
        let without = try verify(site(""))
        XCTAssertEqual(try findings(without).filter { $0.rule == "nginx.add-header-without-always" }.map(\.line), [3], without.stdout)
        XCTAssertTrue(
            without.stdout.contains(
                "strict-transport-security is missing from the error answers (502, 504): it is added to the site's successful answers only"), without.stdout)
        let with = try verify(site(" always"))
        XCTAssertEqual(try findings(with).filter { $0.rule == "nginx.add-header-without-always" }.map(\.line), [], with.stdout)
    }

    func testAnUnknownVariableIsPlacedAtItsFirstUse() throws {
        // nginx names no file or line for it.
        let result = try verify(
            "map $host $backend {\n    default app;\n    beta.example $beta_backnd;\n}\nserver {\n    location / { proxy_pass http://$backend; }\n}\n")
        XCTAssertEqual(try findings(result).map { "\($0.rule):\($0.line)" }, ["nginx.directive:3"], result.stdout)
    }

    func testAnErrorPageTheUpstreamAnswersIsProxied() throws {
        // /502.html is the catch-all location's, which proxies: nginx fetches the page from the
        // upstream that has just failed.
        let result = try verify("server {\n    server_name app.example;\n    error_page 502 /502.html;\n    location / { proxy_pass http://app:80; }\n}\n")
        XCTAssertEqual(try findings(result).filter { $0.rule == "nginx.error-page-proxied" }.map(\.line), [3], result.stdout)
        XCTAssertTrue(result.stdout.contains("/502.html is answered by the upstream"), result.stdout)
    }

    func testANamedLocationTheServerLacksIsFoundInItsErrorLog() throws {
        // nginx answers the failure with a plain 500; only its error log says why.
        let result = try verify(
            "server {\n    server_name app.example;\n    error_page 502 503 504 @down;\n    location @5xx { return 503; }\n    location / { proxy_pass http://app:80; }\n}\n"
        )
        XCTAssertEqual(try findings(result).filter { $0.rule == "nginx.error-page-undefined-named-location" }.map(\.line), [3], result.stdout)
        XCTAssertTrue(result.stdout.contains("could not find named location \\\"@down\\\""), result.stdout)
    }

    func testALocationThatDropsTheInheritedNotFoundPageIsAskedForAMissingFile() throws {
        // Its own error_page replaces the server's: a file not there gets nginx's built-in 404.
        let result = try verify(
            "server {\n    server_name files.example;\n    root /usr/share/detour;\n    error_page 404 /errors/500.html;\n    location /downloads/ { error_page 403 /errors/403.html; }\n}\n"
        )
        XCTAssertEqual(try findings(result).filter { $0.rule == "nginx.inherited-error-page-dropped" }.map(\.line), [5], result.stdout)
        // The location's own path (a folder the empty root lacks) meets it too.
        XCTAssertTrue(
            result.stdout.contains("GET files.example/downloads/detour-missing, upstream answering 200 → 404 with the server's own error page"), result.stdout)
    }

    func testAGroupOfServersIsNotMarkedDownByAnEarlierMode() throws {
        // Two servers: nginx would count the failures of the mode where nothing listens and
        // answer the next modes with "no live upstreams" without asking; the upstream's own
        // 500 must reach the probe to be judged.
        let result = try verify(
            "upstream app {\n    server 10.0.0.1:80;\n    server 10.0.0.2:80 max_fails=3 fail_timeout=30s;\n}\nserver {\n    server_name app.example;\n    \(pagesSnippet)\n    location / { proxy_pass http://app; }\n}\n"
        )
        XCTAssertEqual(try findings(result).map(\.rule), ["nginx.upstream-errors-pass-through"], result.stdout)
        XCTAssertTrue(result.stdout.contains("max_fails=3: max_fails=0"), result.stdout)
    }

    func testAPageAReturnAnswersAndAMissingPageAreNamedAtTheirErrorPageLines() throws {
        // /502.json falls into a location whose `return` answers it: not a page file.
        let returned = try verify(
            "server {\n    server_name api.example;\n    error_page 502 /502.json;\n    location /502.json { return 502 '{\"status\": \"error\"}'; }\n    location / { proxy_pass http://127.0.0.1:5000; }\n}\n"
        )
        XCTAssertEqual(try findings(returned).filter { $0.rule == "nginx.error-page-returned" }.map(\.line), [3], returned.stdout)
        // A location's own error_page whose file is not there: the 404 is that line's.
        let missing = try verify(
            "server {\n    server_name app.example;\n    location / {\n        proxy_pass http://127.0.0.1:5000;\n        error_page 502 503 504 /maintenance.html;\n    }\n    location = /maintenance.html { root /srv/none; internal; }\n}\n"
        )
        XCTAssertEqual(try findings(missing).filter { $0.rule == "nginx.error-page-missing-file" }.map(\.line), [5], missing.stdout)
    }

    func testAFormSentToAStaticPageIsRefusedWhereAPageReadIsServed() throws {
        // A named location keeps the request's method: nginx's static files refuse a POST.
        try folder.write(["public/errors/405.html": "<p>detour's page for 405</p>\n"])
        let result = try verify(
            "server {\n    server_name form.example;\n    error_page 502 @down;\n    location @down { root /usr/share/detour/errors; try_files /502.html =502; }\n    location / { proxy_pass http://app:80; proxy_intercept_errors on; }\n}\n"
        )
        XCTAssertTrue(try findings(result).map(\.rule).contains("nginx.code-not-covered"), result.stdout)
        // The upstream's own 500 and 503 pass too: no error_page names them.
        XCTAssertTrue(result.stdout.contains("visitors get 405, 500, 503, 504 with the server's own error page or the upstream's own body"), result.stdout)
        XCTAssertFalse(try findings(result).map(\.rule).contains("nginx.upstream-errors-pass-through"), "uncovered codes are not the upstream's pass-through")
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let answers = try XCTUnwrap(report["observations"] as? [[String: Any]]).filter {
            $0["upstream"] as? String == "not listening" && $0["path"] as? String == "/"
        }
        XCTAssertEqual(answers.map { "\($0["method"] ?? "") \($0["status"] ?? "")" }, ["GET 502", "POST 405", "HEAD 502"])
    }

    func testTheSandboxMakesNoRefusedListenAcceptable() throws {
        // Both ports are refused, the listen's first and then the upstream's, as written.
        let result = try verify("server {\n    listen 80000;\n    location / { proxy_pass http://app:99999; }\n}\n")
        XCTAssertEqual(try findings(result).map(\.rule), ["nginx.directive", "nginx.directive"], result.stdout)
        XCTAssertEqual(try findings(result).map(\.line), [2, 3])
        XCTAssertTrue(result.stdout.contains("invalid port in \\\"80000\\\""), result.stdout)
        XCTAssertTrue(result.stdout.contains("app:99999"), result.stdout)
    }

    func testAModuleTheConfigurationDoesNotLoadIsLoadedWithWhatItIsBuiltOn() throws {
        // As on a server where the module is built in or loaded by another file: set-misc
        // needs the NDK loaded before it, which its missing symbol names.
        let result = try verify(
            "server {\n    listen 80;\n    more_set_headers \"X-A: b\";\n    location / { set_escape_uri $e \"a b\"; return 200 $e; }\n}\n")
        XCTAssertEqual(result.status, 0, result.stderr + result.stdout)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], result.stderr)
        let rewrites = try XCTUnwrap(report["rewrites"] as? [[String: Any]]).compactMap { $0["text"] as? String }
        for module in ["ngx_http_headers_more_filter_module.so", "ngx_http_set_misc_module.so", "ndk_http_module.so"] {
            XCTAssertTrue(rewrites.contains { $0.hasPrefix("load_module ") && $0.contains("/" + module + " added") }, "\(module): \(rewrites)")
        }
        XCTAssertTrue(rewrites.contains { $0.contains("ndk_http_module.so added: the module loaded here needs its ndk_") }, "\(rewrites)")
        let answers = try XCTUnwrap(report["observations"] as? [[String: Any]]).filter { $0["path"] as? String == "/" && $0["method"] as? String == "GET" }
        XCTAssertEqual(Set(answers.compactMap { $0["status"] as? Int }), [200], "the site runs: \(answers)")
    }

    func testAnUpstreamAddressInAVariableNothingDefinesIsRefusedAtEachUse() throws {
        // The fake upstream takes the address's place; nginx still reads the variable, as
        // docker-compose templates left unrendered show it.
        let result = try verify(
            "server {\n    listen 80;\n    location / { proxy_pass http://$BACKEND_ADDR; }\n    location /api/ { proxy_pass http://$BACKEND_ADDR/v1/; }\n}\n")
        XCTAssertEqual(try findings(result).map(\.rule), ["nginx.directive", "nginx.directive"], result.stdout)
        XCTAssertEqual(try findings(result).map(\.line), [3, 4])
        XCTAssertTrue(result.stdout.contains("unknown \\\"backend_addr\\\" variable"), result.stdout)
    }

    func testCodesTheServerRaisesItselfAndAnAddressOfItsOwnAreProbed() throws {
        // 429 comes only from a limit and its page's location is internal; the `if` answers 403
        // and, run again for the page's own request, refuses it too. The second server shares
        // its name and port with the first, on another address: it is asked on a port of its own.
        try folder.write(["public/errors/403.html": "<p>detour's page for 403</p>\n"])
        let result = try verify(
            """
            server {
                listen 10.0.0.1:80;
                server_name shared.example;
                location / { return 204; }
            }
            server {
                listen 10.0.0.2:80;
                server_name shared.example;
                error_page 403 /errors/403.html;
                error_page 429 /errors/429.html;
                location /errors/ { root /usr/share/detour; internal; }
                if ($request_uri ~ "/\\.") { return 403; }
                location / { limit_req zone=one; return 200 "second"; }
            }
            limit_req_zone $binary_remote_addr zone=one:1m rate=1r/m;

            """)
        let found = try findings(result)
        XCTAssertTrue(found.contains { $0.rule == "nginx.error-page-server-rewrite" && $0.line == 12 }, result.stdout)
        XCTAssertTrue(found.contains { $0.rule == "nginx.error-page-missing-file" && $0.line == 10 }, result.stdout)
        XCTAssertFalse(found.contains { $0.rule == "nginx.error-page-missing-file" && $0.line == 9 }, "403.html is there: \(result.stdout)")
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let observations = try XCTUnwrap(report["observations"] as? [[String: Any]])
        let roots = observations.filter { $0["path"] as? String == "/" && $0["method"] as? String == "GET" }
        XCTAssertEqual(Set(roots.compactMap { $0["status"] as? Int }), [200, 204], "each server on its own port, none rate-limited: \(roots)")
        let rewrites = try XCTUnwrap(report["rewrites"] as? [[String: Any]]).compactMap { $0["text"] as? String }
        XCTAssertTrue(rewrites.contains("limit_req: probes are not limited"), "\(rewrites)")
    }

    func testRoutesBehindAnAuthServiceMeetTheUpstreamsFailuresAndTheSignInFormIsNoErrorPage() throws {
        // The auth service lets every probe in, so /app/'s own 503 is seen passing through; the
        // sign-in form answering 401 is the flow, not an error page to keep internal.
        let result = try verify(
            """
            server {
                server_name shop.example;
                error_page 401 =200 /signin;
                error_page 500 502 504 /errors/$status.html;
                location /errors/ { root /usr/share/detour; internal; }
                location = /auth { internal; proxy_pass http://auth.internal:9091/verify; }
                location = /signin { return 200 "sign-in form"; }
                location /app/ { auth_request /auth; proxy_pass http://app.internal:8080; proxy_intercept_errors on; }
                location / { return 200 "home"; }
            }
            """)
        let found = try findings(result)
        XCTAssertTrue(found.contains { $0.rule == "nginx.code-not-covered" && $0.line == 1 }, "503 from the application: \(result.stdout)")
        XCTAssertTrue(found.contains { $0.rule == "nginx.intercepted-code-without-page" && $0.line == 8 }, result.stdout)
        XCTAssertFalse(found.contains { $0.line == 3 || $0.line == 7 }, "the sign-in form is no error page: \(result.stdout)")
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let rewrites = try XCTUnwrap(report["rewrites"] as? [[String: Any]]).compactMap { $0["text"] as? String }
        XCTAssertTrue(
            rewrites.contains { $0.hasPrefix("proxy_pass http://auth.internal:9091/verify: an auth service that lets every probe in") }, "\(rewrites)")
    }

    func testALocationsOwnPagesAreRaisedAndAPasswordOnThemIsSeenWhereTheUpstreamFails() throws {
        // /app/'s 500 is sent as 200 when nginx raises it (the upstream's own 500 is not
        // intercepted); /shop/'s pages sit behind a password its visitors never give.
        let result = try verify(
            """
            server {
                server_name shop.example;
                location ^~ /errors/ { root /usr/share/detour; internal; }
                location /app/ {
                    proxy_pass http://app.internal:8080;
                    error_page 500 =200 /errors/500.html;
                }
                location /shop/ { proxy_pass http://app.internal:8080; proxy_intercept_errors on; error_page 500 502 503 504 /pages/$status.html; }
                location /pages/ { alias /usr/share/detour/errors/; auth_basic staff; auth_basic_user_file /etc/nginx/htpasswd; }
                location / { return 200 "home"; }
            }
            """)
        let found = try findings(result)
        XCTAssertTrue(found.contains { $0.rule == "nginx.error-page-soft-status" && $0.line == 6 }, result.stdout)
        XCTAssertTrue(found.contains { $0.rule == "nginx.error-page-protected" && $0.line == 9 }, result.stdout)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let observations = try XCTUnwrap(report["observations"] as? [[String: Any]])
        let raised = observations.filter { $0["path"] as? String == "/app/detour-raise-500" }
        XCTAssertEqual(raised.compactMap { $0["status"] as? Int }, [200], "the raise route sits inside /app/: \(raised)")
        let shop = observations.filter { $0["path"] as? String == "/shop/" && $0["upstream"] as? String == "answering 502" && $0["method"] as? String == "GET" }
        XCTAssertEqual(shop.compactMap { $0["status"] as? Int }, [401], "\(shop)")
    }

    func testCompareCheckListsWhereCheckSaysOtherwise() throws {
        // A 503 page with no error_page for it: check and the real server both say so, at the server.
        let servers =
            "server {\n    server_name shop.example;\n    error_page 502 504 /errors/$status.html;\n    location /errors/ { root /usr/share/detour; internal; }\n    location / { proxy_pass http://app.internal:8080; proxy_intercept_errors on; }\n}\n"
        let result = try verify(servers, extra: ["--compare-check"])
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], result.stderr)
        XCTAssertEqual(try XCTUnwrap(report["check_disagreements"] as? [[String: Any]]).count, 0, result.stdout)
        XCTAssertTrue(try findings(result).contains { $0.rule == "nginx.code-not-covered" }, result.stdout)
        // Without the map, check finds no page file where verify serves none either: both say it, alike.
        try write(servers)
        let text = try ProcessRunner.run(
            Repository.detourExecutable, ["verify", "nginx", "conf/nginx.conf", "--pages", "public/errors", "--compare-check", "-q"], in: folder.url,
            environment: environment)
        XCTAssertTrue(text.stdout.contains("detour check says the same on every rule verify observes."), text.stdout + text.stderr)
    }

    func testWhatCannotRunIsRefusedWithExitTwo() throws {
        let absent = try verify("server { listen 80; }\n", extra: ["--server-binary", "/nonexistent/nginx"])
        XCTAssertEqual(absent.status, 2)
        XCTAssertTrue(absent.stderr.contains("/nonexistent/nginx is not installed here"), absent.stderr)
        let noPages = try ProcessRunner.detour(["verify", "nginx", "conf/nginx.conf", "--pages", "conf"], in: folder.url)
        XCTAssertEqual(noPages.status, 64, noPages.stderr)
        XCTAssertTrue(noPages.stderr.contains("no <status>.html pages in 'conf'"), noPages.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch.path), [], "no sandbox is left")
    }

    func testNothingIsLeftAfterARunOrAnInterruption() throws {
        let site = "server {\n    listen 8080;\n    location / { proxy_pass http://app:80; }\n}\n"
        try write(site)
        let before = try FileManager.default.subpathsOfDirectory(atPath: folder.path).sorted()
        XCTAssertEqual(try verify(site).status, 1)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch.path), [], "the sandbox is removed")
        XCTAssertEqual(try FileManager.default.subpathsOfDirectory(atPath: folder.path).sorted(), before, "nothing is written beside the configuration")

        // Interrupted while the upstream is silent: nginx stopped, the sandbox gone.
        let process = Process()
        process.executableURL = Repository.detourExecutable
        process.arguments = ["verify", "nginx", "conf/nginx.conf", "--pages", "public/errors"]
        process.currentDirectoryURL = folder.url
        process.environment = environment
        let output = scratch.url.appendingPathComponent("verify.out")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = process.standardOutput
        try process.run()
        XCTAssertTrue(
            Poll.until { ((try? FileManager.default.contentsOfDirectory(atPath: self.scratch.path)) ?? []).contains { $0.hasPrefix("detour-verify-") } })
        let sandbox = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: scratch.path).first { $0.hasPrefix("detour-verify-") })
        let pidFile = scratch.path + "/" + sandbox + "/server.pid"
        XCTAssertTrue(Poll.until { ((try? String(contentsOfFile: pidFile, encoding: .utf8)) ?? "").hasSuffix("\n") }, "nginx started")
        let pid = try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130, (try? String(contentsOf: output, encoding: .utf8)) ?? "")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch.path), ["verify.out"], "the sandbox is removed")
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/proc/\(pid)"), "nginx (\(pid)) was stopped")
    }
}
