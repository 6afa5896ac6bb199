import DetourTestSupport
import Foundation
import XCTest

/// `detour verify varnish` on VCL written as operators write it: the real varnishd compiles the
/// sandboxed copy, runs it on a loopback port, and what it answered decides the findings.
final class VerifyVarnishTests: XCTestCase {
    private var workspace: VerifyWorkspace!

    override func setUpWithError() throws {
        workspace = try VerifyWorkspace(server: "varnishd")
    }

    override func tearDown() {
        workspace?.remove()
    }

    private func verify(_ vcl: String, extra: [String] = []) throws -> ProcessResult {
        try workspace.folder.write(["default.vcl": vcl])
        return try workspace.detour(
            [
                "verify", "varnish", "default.vcl", "--pages", "public/errors", "--map", "/usr/share/detour=public", "--timeout", "5", "--format", "json",
            ] + extra)
    }

    /// A failed fetch answered with detour's page read by std.fileread; the backend's own 5xx
    /// delivered as it came, named at the VCL as `detour check varnish` names it.
    func testAFailedFetchGetsItsPageAndTheBackendsErrorsPass() throws {
        let result = try verify(
            """
            vcl 4.1;

            import std;

            backend default {
                .host = "app.internal";
                .port = "8080";
                .first_byte_timeout = 60s;
                .probe = {
                    .url = "/health";
                    .interval = 5s;
                }
            }

            sub vcl_backend_error {
                set beresp.http.Content-Type = "text/html; charset=utf-8";
                synthetic(std.fileread("/usr/share/detour/errors/" + beresp.status + ".html"));
                return (deliver);
            }

            # A fetch that fails once delivery has begun (a backend closing mid-answer) ends here.
            sub vcl_synth {
                set resp.http.Content-Type = "text/html; charset=utf-8";
                synthetic(std.fileread("/usr/share/detour/errors/" + resp.status + ".html"));
                return (deliver);
            }

            """)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(try VerifyWorkspace.findings(result), ["varnish.upstream-errors-pass-through:1"])
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "answering 200")?.status, 200)
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "not listening")?.status, 503)
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "not listening")?.body, "detour's public/errors/503.html")
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "answering 500")?.body, "the upstream's own body")
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "slower than the timeout")?.status, 503, "first_byte_timeout, shortened")
        let rewrites = try VerifyWorkspace.texts(result, "rewrites")
        XCTAssertTrue(rewrites.contains("backend default app.internal:8080: the fake upstream"), "\(rewrites)")
        XCTAssertTrue(rewrites.contains("backend default .probe: removed, a health check's timing would decide the answers"), "\(rewrites)")
        XCTAssertTrue(rewrites.contains("backend default .first_byte_timeout 60s: 3s, so a silent upstream is given up in time"), "\(rewrites)")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: workspace.scratch.path), [], "the sandbox is removed")
    }

    /// An ACL naming Compose services (`"api"`, `"nginx"/24`): varnishd resolves them when it
    /// compiles and refuses a name that does not resolve, which here none does; the sandbox puts
    /// each in parentheses, where an unresolved name is left out, so the VCL runs and its pages
    /// are judged. Addresses, `localhost` and an entry already in parentheses stay as written.
    func testACLHostNamesResolvedWhereTheConfigurationRuns() throws {
        let result = try verify(
            """
            vcl 4.1;

            import std;

            backend default {
                .host = "nginx";
                .port = "9988";
            }

            acl purgers {
                "localhost";
                "127.0.0.1";
                "10.0.0.0"/8;
                "api";
                ! "nginx"/24;
                ("cache.internal");
                "::1";
            }

            sub vcl_recv {
                if (req.method == "PURGE" && client.ip ~ purgers) {
                    return (purge);
                }
            }

            sub vcl_backend_error {
                set beresp.body = std.fileread("/usr/share/detour/errors/" + beresp.status + ".html");
                return (deliver);
            }

            sub vcl_synth {
                synthetic(std.fileread("/usr/share/detour/errors/" + resp.status + ".html"));
                return (deliver);
            }

            """, extra: ["--compare-check"])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(try VerifyWorkspace.disagreements(result), [])
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "not listening")?.body, "detour's public/errors/503.html")
        let rewrites = try VerifyWorkspace.texts(result, "rewrites").filter { $0.hasPrefix("acl ") }
        XCTAssertEqual(
            rewrites,
            [
                "acl purgers \"api\": in parentheses, the name resolves where the configuration runs, not here",
                "acl purgers \"nginx\": in parentheses, the name resolves where the configuration runs, not here",
            ])
    }

    /// A page in vcl_backend_error alone: a backend that breaks its answer off meets vcl_synth's
    /// 503, Varnish's own page, when the fetch fails before delivery began, or the answer cut
    /// short, a race inside varnishd: judged only where the 503 was met, as `detour check
    /// varnish` names it; a path vcl_recv answers with a synth of its own is probed, its finding
    /// at that return.
    func testABackendBreakingItsAnswerOffMeetsVclSynth() throws {
        let result = try verify(
            """
            vcl 4.1;

            import std;

            backend default {
                .host = "app.internal";
            }

            sub vcl_recv {
                if (req.url ~ "^/(admin|wp-admin)/") {
                    return (synth(503, "Closed"));
                }
            }

            sub vcl_backend_response {
                if (beresp.status >= 500) {
                    return (error(beresp.status));
                }
            }

            sub vcl_backend_error {
                set beresp.body = std.fileread("/usr/share/detour/errors/" + beresp.status + ".html");
                return (deliver);
            }

            """, extra: ["--compare-check"])
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertTrue(try VerifyWorkspace.findings(result).contains("varnish.code-not-covered:11"), result.stdout)
        XCTAssertEqual(try VerifyWorkspace.disagreements(result), [])
        let brokenOff = try XCTUnwrap(VerifyWorkspace.answer(result, "/", "closing mid-body"))
        XCTAssertTrue(
            (brokenOff.status == 503 && brokenOff.body == "the server's own error page") || brokenOff.status == 200,
            "vcl_synth's 503 or the answer cut short: \(brokenOff)")
        if brokenOff.status == 503 { XCTAssertTrue(try VerifyWorkspace.findings(result).contains("varnish.code-not-covered:1")) }
        XCTAssertTrue(try VerifyWorkspace.texts(result, "not_probed").contains { $0.contains("breaks its answer off") })
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "not listening")?.body, "detour's public/errors/503.html")
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/admin/", "answering 200")?.status, 503)
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/admin/", "answering 200")?.body, "the server's own error page")
    }

    /// Shapes of VCLs people publish, each a way check read wrong before the real varnishd
    /// judged it, with check and verify agreeing now (`--compare-check`): a vcl_recv that pipes
    /// every request (the backend's own errors pass as they are, a dead backend closes the
    /// connection); an uncacheable status's `beresp.ttl`, -1 before vcl_backend_response, so
    /// `beresp.ttl <= 0s` delivers it before a later `abandon`; a synth only a PURGE request
    /// reaches, listed as not probed; a named probe whose backend's `.probe` the sandbox took
    /// away goes too (varnishd refuses an unused one).
    func testPipesUncacheableStatusesAndMethodOnlySynthsAsTheRealServerHasThem() throws {
        let piped = try verify(
            """
            vcl 4.1;

            backend default {
                .host = "app.internal";
            }

            sub vcl_recv {
                return (pipe);
            }

            """, extra: ["--compare-check"])
        XCTAssertEqual(try VerifyWorkspace.findings(piped), ["varnish.upstream-errors-pass-through:8"], piped.stdout)
        XCTAssertEqual(try VerifyWorkspace.answer(piped, "/", "answering 502")?.body, "the upstream's own body")
        XCTAssertEqual(try VerifyWorkspace.answer(piped, "/", "not listening")?.status, 0, "the connection closes with no answer")
        XCTAssertEqual(try VerifyWorkspace.disagreements(piped), [])
        let delivered = try verify(
            """
            vcl 4.1;

            probe health {
                .url = "/health";
            }

            backend default {
                .host = "app.internal";
                .probe = health;
            }

            acl purge {
                "localhost";
            }

            sub vcl_recv {
                if (req.method == "PURGE") {
                    if (!client.ip ~ purge) {
                        return (synth(405, "Not allowed."));
                    }
                    return (purge);
                }
            }

            sub vcl_backend_response {
                if (beresp.ttl <= 0s) {
                    set beresp.uncacheable = true;
                    return (deliver);
                }
                if (beresp.status >= 500) {
                    return (abandon);
                }
            }

            """, extra: ["--compare-check"])
        XCTAssertEqual(try VerifyWorkspace.findings(delivered), ["varnish.code-not-covered:1", "varnish.upstream-errors-pass-through:28"], delivered.stdout)
        XCTAssertTrue(try VerifyWorkspace.texts(delivered, "rewrites").contains("probe health: removed, as the backends' .probe that named it"))
        XCTAssertEqual(try VerifyWorkspace.answer(delivered, "/", "answering 500")?.status, 500, "delivered, never abandoned")
        XCTAssertTrue(try VerifyWorkspace.texts(delivered, "not_probed").contains { $0.contains("a synth only a PURGE request reaches") })
        XCTAssertEqual(try VerifyWorkspace.disagreements(delivered), [])
    }

    /// `req.url` holds the query too, so a probe's URL is the route's as written (its mark goes
    /// in a header): the health check `req.url == "/varnish-health"` answers itself, as for
    /// visitors, and only the fetching routes meet the broken-off answer that vcl_synth leaves
    /// to the built-in page; check names that at vcl_synth, as verify does.
    func testARouteTestedByItsWholeURLIsProbedAsWritten() throws {
        let result = try verify(
            """
            vcl 4.1;

            import std;

            backend default {
                .host = "app.internal";
            }

            sub vcl_recv {
                if (req.url == "/varnish-health") {
                    return (synth(200, "OK"));
                }
            }

            sub vcl_backend_response {
                if (beresp.status >= 500) {
                    return (error(beresp.status));
                }
            }

            sub vcl_backend_error {
                set beresp.http.Content-Type = "text/html; charset=utf-8";
                synthetic(std.fileread("/usr/share/detour/errors/" + beresp.status + ".html"));
                return (deliver);
            }

            sub vcl_synth {
                if (resp.status == 200) {
                    synthetic("OK");
                    return (deliver);
                }
            }

            """, extra: ["--compare-check"])
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/varnish-health", "answering 500")?.status, 200, result.stdout)
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/varnish-health", "not listening")?.body, "the site's own body")
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "not listening")?.body, "detour's public/errors/503.html")
        XCTAssertEqual(try VerifyWorkspace.findings(result), ["varnish.code-not-covered:27"], result.stdout)
        XCTAssertEqual(try VerifyWorkspace.disagreements(result), [])
    }

    /// A retry in vcl_backend_error with vcl_synth sending no body: a page read retries and then
    /// meets the page's missing file, while a form whose body went to the backend cannot be
    /// sent again ("Retry not possible, req.body not cached"): its fetch fails at the retry,
    /// and vcl_synth's empty 503 is named there, as `detour check varnish` names it. The near
    /// miss keeps request bodies (`std.cache_req_body`): a form is retried like a page read,
    /// and no empty 503 is left at the retry; a form sent while nothing listens (no body went)
    /// is retried in both.
    func testARetryAFormCannotMakeFailsItsFetchWhereAPageReadIsRetried() throws {
        let vcl = """
            vcl 4.1;

            import std;

            backend default {
                .host = "127.0.0.1";
                .port = "8080";
            }

            sub vcl_recv {
            }

            sub vcl_backend_error {
                if (bereq.retries < 2) {
                    return (retry);
                }
                synthetic(std.fileread("/usr/share/detour/missing/" + beresp.status + ".html"));
                return (deliver);
            }

            sub vcl_synth {
                return (deliver);
            }

            """
        let result = try verify(vcl, extra: ["--compare-check"])
        let unreadable = "sending a header no proxy can read"
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", unreadable, method: "POST")?.status, 503, result.stdout)
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", unreadable, method: "POST")?.body, "an empty body")
        XCTAssertEqual(
            try VerifyWorkspace.answer(result, "/", unreadable)?.body, "the text '(null)' a read of a missing file leaves", "synthetic() of the NULL read")
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "not listening", method: "POST")?.body, "the text '(null)' a read of a missing file leaves")
        let findings = try VerifyWorkspace.findings(result)
        XCTAssertTrue(findings.contains("varnish.code-not-covered:15"), "the form's failed fetch, at the retry: \(findings)")
        XCTAssertTrue(findings.contains("varnish.error-page-missing-file:17"), "the page read's missing file: \(findings)")
        XCTAssertEqual(try VerifyWorkspace.disagreements(result), [], result.stdout)
        let kept = try verify(vcl.replacingOccurrences(of: "sub vcl_recv {\n", with: "sub vcl_recv {\n    std.cache_req_body(1MB);\n"))
        XCTAssertEqual(
            try VerifyWorkspace.answer(kept, "/", unreadable, method: "POST")?.body, "the text '(null)' a read of a missing file leaves", kept.stdout)
        let keptFindings = try VerifyWorkspace.findings(kept)
        // One line down: the retry at 16, the read at 18.
        XCTAssertFalse(keptFindings.contains("varnish.code-not-covered:16"), "a kept body is sent again: \(keptFindings)")
        XCTAssertTrue(keptFindings.contains("varnish.error-page-missing-file:18"), "\(keptFindings)")
    }

    func testBuiltInPagesRefusalsAndMissingVMODs() throws {
        let bare = try verify("vcl 4.1;\n\nbackend default {\n    .host = \"app.internal\";\n}\n")
        XCTAssertEqual(bare.status, 1, bare.stdout + bare.stderr)
        // The built-in vcl_backend_response delivers the backend's own errors too, as `detour check` says.
        XCTAssertEqual(try VerifyWorkspace.findings(bare), ["varnish.code-not-covered:1", "varnish.upstream-errors-pass-through:1"])
        XCTAssertEqual(try VerifyWorkspace.answer(bare, "/", "not listening")?.body, "the server's own error page")
        let refused = try verify("vcl 4.1;\nbackend default { .host = \"app\"; }\nsub vcl_recv { set req.foo = 1; }\n")
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertEqual(try VerifyWorkspace.findings(refused), ["varnish.syntax:3"])
        let vmod = try verify("vcl 4.1;\nimport geoip2;\nbackend default { .host = \"app\"; }\n")
        XCTAssertEqual(vmod.status, 2, vmod.stdout)
        XCTAssertTrue(vmod.stderr.contains("a VMOD this varnishd does not have: Could not find VMOD geoip2"), vmod.stderr)
    }
}
