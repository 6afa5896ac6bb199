import DetourTestSupport
import Foundation
import XCTest

/// `detour verify caddy` on Caddyfiles written as operators write them: the real Caddy adapts
/// the sandboxed copy, runs the rewritten JSON, and what it answered decides the findings.
final class VerifyCaddyTests: XCTestCase {
    private var workspace: VerifyWorkspace!
    private var folder: TemporaryFolder { workspace.folder }
    private var scratch: TemporaryFolder { workspace.scratch }

    override func setUpWithError() throws {
        workspace = try VerifyWorkspace(server: "caddy")
    }

    override func tearDown() {
        workspace?.remove()
    }

    private func verify(_ caddyfile: String, files: [String: String] = [:]) throws -> ProcessResult {
        try folder.write(["conf/Caddyfile": caddyfile].merging(files) { first, _ in first })
        let arguments = [
            "verify", "caddy", "conf/Caddyfile", "--pages", "public/errors", "--map", "/usr/share/detour=public", "--timeout", "3", "--format", "json",
        ]
        return try workspace.detour(arguments)
    }

    private let pages = """
            handle_errors {
                root * /usr/share/detour
                rewrite * /errors/{err.status_code}.html
                file_server
            }
        """

    /// A proxy whose upstream's own 5xx become errors handle_errors answers.
    private let interceptingProxy = """
            reverse_proxy 10.0.0.5:8080 {
                @error status 5xx
                handle_response @error {
                    error "upstream error" {rp.status_code}
                }
            }
        """

    /// `root /srv` is Caddy 2.8's form, which 2.6 refuses: the refusal is reported, and the rest
    /// still runs, as check judges it, as that Caddy would serve it.
    func testAFormOfALaterCaddyIsRefusedAndTheSiteStillJudged() throws {
        let result = try verify(
            """
            spa.example {
                handle /api/* {
                    reverse_proxy backend:8000
                }
                handle {
                    root /srv
                    file_server
                }
            }
            """)
        let findings = try VerifyWorkspace.findings(result)
        XCTAssertTrue(findings.contains("caddy.directive:6"), "\(findings) \(result.stdout)")
        XCTAssertTrue(findings.contains("caddy.code-not-covered:1"), "\(findings)")
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/api/detour-probe", "not listening")?.status, 502)
    }

    /// An option of a later Caddy inside a block this one reads (`servers { trusted_proxies … }`
    /// before 2.6.3) is refused and reported; the rest runs, judged as served without it. And
    /// `php_fastcgi` is asked for a script (`/index.php`), which it passes on whether or not the
    /// site has the file.
    func testALaterCaddysOptionIsReportedAndPHPIsAskedForAScript() throws {
        let result = try verify(
            """
            {
                servers {
                    trusted_proxies static private_ranges
                }
            }
            app.example {
                root * /srv/public
                php_fastcgi localhost:9000
                file_server
            }
            """)
        let findings = try VerifyWorkspace.findings(result)
        XCTAssertTrue(findings.contains("caddy.directive:3"), "\(findings) \(result.stdout)")
        XCTAssertTrue(findings.contains("caddy.code-not-covered:6"), "\(findings)")
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/index.php", "not listening")?.status, 502)
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/index.php", "answering 503")?.body, "the upstream's own body")
        let rewrites = try VerifyWorkspace.texts(result, "rewrites")
        XCTAssertTrue(rewrites.contains { $0.contains("reverse_proxy (FastCGI) localhost:9000: the fake upstream (fastcgi)") }, "\(rewrites)")
    }

    func testACoveredSiteIsCleanAndEveryFailureGetsItsPage() throws {
        let result = try verify(
            """
            {
                email ops@example.com
            }

            shop.example {
                reverse_proxy https://app.internal:8443 {
                    @failed status 5xx
                    handle_response @failed {
                        error "the application failed" {rp.status_code}
                    }
                }
            \(pages)
            }

            """)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(try VerifyWorkspace.findings(result), [])
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "answering 200")?.status, 200)
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "answering 200")?.body, "the upstream's own body")
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "not listening")?.status, 502)
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "not listening", method: "POST")?.body, "detour's public/errors/502.html")
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "answering 503")?.status, 503)
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "answering 503")?.body, "detour's public/errors/503.html")
        let rewrites = try VerifyWorkspace.texts(result, "rewrites")
        XCTAssertTrue(rewrites.contains { $0.hasPrefix("in the adapted JSON, admin, storage: off") }, "\(rewrites)")
        XCTAssertTrue(rewrites.contains { $0.hasPrefix("in the adapted JSON, the tls app: removed") }, "\(rewrites)")
        XCTAssertTrue(rewrites.contains { $0.hasPrefix("in the adapted JSON, reverse_proxy app.internal:8443: the fake upstream") }, "\(rewrites)")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch.path), [], "the sandbox is removed")
    }

    /// A site without handle_errors answers Caddy's own 502 with an empty body; the upstream's
    /// own errors pass in a site that has pages, at the proxy line of the `handle` that takes them.
    func testFailuresWithoutPagesAndErrorsThatPassThrough() throws {
        let result = try verify(
            """
            api.example {
                reverse_proxy 10.0.0.5:9000
            }

            shop.example {
                handle /api/* {
                    reverse_proxy 10.0.0.6:9000
                }
                handle {
                    reverse_proxy 10.0.0.7:9000 {
                        @failed status 5xx
                        handle_response @failed {
                            error "failed" {rp.status_code}
                        }
                    }
                }
            \(pages)
            }

            """)
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertEqual(Set(try VerifyWorkspace.findings(result)), ["caddy.code-not-covered:1", "caddy.upstream-errors-pass-through:7"])
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "not listening", host: "api.example")?.body, "an empty body")
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/api/detour-probe", "answering 500")?.body, "the upstream's own body")
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "answering 500", host: "shop.example")?.body, "detour's public/errors/500.html")
    }

    /// handle_response that sends a page of the site's own with file_server answers 200 where
    /// the application failed: the finding is at that file_server.
    func testAnUpstreamFailureAnsweredAsASuccess() throws {
        let result = try verify(
            """
            example.com {
                reverse_proxy localhost:8080 {
                    @error status 500 502 503 504
                    handle_response @error {
                        root * /usr/share/detour
                        rewrite * /errors/{rp.status_code}.html
                        file_server
                    }
                }
            \(pages)
            }

            """)
        XCTAssertEqual(try VerifyWorkspace.findings(result), ["caddy.error-page-soft-status:7"], result.stdout)
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "answering 503")?.status, 200)
    }

    /// What Caddy refuses is a finding at the line it names, the innermost of a nested message;
    /// an absolute import is read from its copy, named as the original.
    func testWhatCaddyRefusesIsAFindingAtItsLine() throws {
        let nested = try verify("example.com {\n    handle /app/* {\n        root /srv\n        file_server\n    }\n}\n")
        XCTAssertEqual(nested.status, 1, nested.stderr)
        XCTAssertEqual(try VerifyWorkspace.findings(nested), ["caddy.directive:3"], nested.stdout)
        // Caddy stops at the first; each refused block blanked, it names the next.
        let twice = try verify("example.com {\n    handle_errors 404 {\n        respond gone\n    }\n    handle_errors 5xx {\n        respond down\n    }\n}\n")
        XCTAssertEqual(try VerifyWorkspace.findings(twice), ["caddy.directive:2", "caddy.directive:5"], twice.stdout)
        // An unknown global option (a plugin's, FrankenPHP's) is one statement too: the rest is read on.
        let plugin = try verify("{\n    frankenphp\n}\n\nexample.com {\n    php_server\n}\n")
        XCTAssertEqual(try VerifyWorkspace.findings(plugin), ["caddy.directive:2", "caddy.directive:6"], plugin.stdout)
        // Past a blank, a module this Caddy lacks (a plugin's encoder) ends the reading, and says so.
        let encoder = try verify("{\n    frankenphp\n}\n\nexample.com {\n    encode zstd br gzip\n    php_server\n}\n")
        XCTAssertEqual(try VerifyWorkspace.findings(encoder), ["caddy.directive:2"], encoder.stdout)
        let notProbed = try VerifyWorkspace.texts(encoder, "not_probed")
        XCTAssertTrue(notProbed.contains { $0.contains("http.encoders.br") && $0.contains("the refusals after it are not read") }, "\(notProbed)")
        let imported = try verify(
            "import \(folder.path)/conf/sites/*.caddy\n",
            files: ["conf/sites/shop.caddy": "shop.example {\n    reverse_proxy app:80\n    bogus_directive on\n}\n"])
        XCTAssertEqual(imported.status, 1, imported.stderr)
        let diagnostic = try XCTUnwrap((try VerifyWorkspace.report(imported)["diagnostics"] as? [[String: Any]])?.first)
        XCTAssertEqual(diagnostic["rule"] as? String, "caddy.directive")
        let location = try XCTUnwrap(diagnostic["location"] as? [String: Any])
        XCTAssertEqual(location["path"] as? String, "conf/sites/shop.caddy")
        XCTAssertEqual(location["line"] as? Int, 3)
        XCTAssertTrue((diagnostic["message"] as? String ?? "").contains("unrecognized directive: bogus_directive"), imported.stdout)
        XCTAssertFalse(imported.stdout.contains(scratch.path), "no sandbox path is shown")
    }

    /// Proxies without `handle_response` pass the upstream's errors: one cause for the site,
    /// named at its first proxy in the site's order (where the snippet that holds it is
    /// written), however many handles import one, as `detour check` names it.
    func testPassingProxiesAreOneFindingAtTheFirst() throws {
        let result = try verify(
            """
            (app) {
                reverse_proxy 10.0.0.5:3000
            }
            (streaming) {
                reverse_proxy 10.0.0.5:4000
            }
            social.example {
                handle /api/v1/streaming* {
                    import streaming
                }
                handle {
                    import app
                }
            \(pages)
            }

            """)
        XCTAssertEqual(try VerifyWorkspace.findings(result), ["caddy.upstream-errors-pass-through:5"], result.stdout + result.stderr)
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "answering 500")?.body, "the upstream's own body")
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "not listening")?.body, "detour's public/errors/502.html")

        // The first proxy sits behind a matcher no probe is derived from (remote_ip): the
        // cause is still named there, where check names it, though / meets the other one.
        let guarded = try verify(
            """
            :8888 {
                @private remote_ip 10.0.0.0/8
                handle /admin/* {
                    handle @private {
                        reverse_proxy 10.0.0.5:8000
                    }
                    handle {
                        abort
                    }
                }
                handle * {
                    reverse_proxy 10.0.0.5:8000
                }
            \(pages)
            }

            """)
        XCTAssertEqual(try VerifyWorkspace.findings(guarded), ["caddy.upstream-errors-pass-through:5"], guarded.stdout + guarded.stderr)
        XCTAssertEqual(try VerifyWorkspace.answer(guarded, "/", "answering 500")?.body, "the upstream's own body")
        let compared = try workspace.detour([
            "verify", "caddy", "conf/Caddyfile", "--pages", "public/errors", "--map", "/usr/share/detour=public", "--timeout", "3", "--format", "json",
            "--compare-check",
        ])
        XCTAssertEqual(try VerifyWorkspace.disagreements(compared), [], compared.stdout)
    }

    /// A handle_errors whose root holds no page: Caddy answers with the status and no body and
    /// logs that its file_server found nothing; the finding is the missing page, at the rewrite
    /// to it, and the site has pages, which the upstream's own errors pass.
    func testAPageHandleErrorsDoesNotFindIsMissingNotUncovered() throws {
        let result = try verify(
            """
            shop.example {
                reverse_proxy 10.0.0.5:8080
                handle_errors {
                    root * /srv/errors
                    rewrite * /{err.status_code}.html
                    file_server
                }
            }

            """)
        XCTAssertEqual(
            try VerifyWorkspace.findings(result), ["caddy.upstream-errors-pass-through:2", "caddy.error-page-missing-file:5"], result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("fileserver.(*FileServer).notFound"), result.stdout)
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "not listening")?.body, "an empty body")
    }

    /// A handle_errors that fetches its page from the upstream that failed fails with it (Caddy
    /// logs the proxy's error for the error handler): the page is proxied. One that fetches it
    /// from a page service of its own is not.
    func testAPageFetchedFromTheFailedUpstreamIsProxied() throws {
        let proxied = try verify(
            "shop.example {\n    reverse_proxy 10.0.0.5:8080\n    handle_errors {\n        rewrite * /500.html\n        reverse_proxy 10.0.0.5:8080\n    }\n}\n"
        )
        XCTAssertTrue(try VerifyWorkspace.findings(proxied).contains("caddy.error-page-proxied:5"), proxied.stdout + proxied.stderr)
        XCTAssertTrue(proxied.stdout.contains("reverseproxy.statusError"), proxied.stdout)
        let service = try verify(
            "shop.example {\n    reverse_proxy 10.0.0.5:8080\n    handle_errors {\n        rewrite * /500.html\n        reverse_proxy pages.internal:80\n    }\n}\n"
        )
        XCTAssertFalse(try VerifyWorkspace.findings(service).contains("caddy.error-page-proxied:5"), service.stdout)
    }

    /// A handle_errors file_server without a root reads Caddy's working folder, which the
    /// sandbox does not know: listed as not probed, never a missing page. A static site whose
    /// pages come from a page service answers 404 with the service's page whether the service
    /// is up or not: no page file is missing for it.
    func testPagesTheSandboxCannotPlaceAreNotCalledMissing() throws {
        let rootless = try verify(
            "shop.example {\n    reverse_proxy 10.0.0.5:8000\n    handle_errors {\n        rewrite * /500.html\n        file_server\n    }\n}\n")
        XCTAssertEqual(try VerifyWorkspace.findings(rootless), ["caddy.upstream-errors-pass-through:2"], rootless.stdout + rootless.stderr)
        XCTAssertTrue(try VerifyWorkspace.texts(rootless, "not_probed").contains { $0.contains("file_server has no root") }, rootless.stdout)
        let service = try verify(
            "files.example {\n    root * /srv/www\n    file_server browse\n    handle_errors {\n        rewrite * /{err.status_code}\n        reverse_proxy pages.internal:80 {\n            replace_status {err.status_code}\n        }\n    }\n}\n"
        )
        XCTAssertEqual(try VerifyWorkspace.findings(service), [], service.stdout + service.stderr)
        XCTAssertEqual(try VerifyWorkspace.answer(service, "/", "answering 200")?.status, 404)
    }

    /// The page's own request goes only through the blocks of handle_errors its path takes:
    /// a proxy for other paths there is never asked, and a file_server nested in the block
    /// that takes it, under a root that holds no page, is the missing page (at the rewrite),
    /// though Caddy's log line also quotes the proxy's first failure.
    func testAPageIsFollowedThroughTheBlocksItsPathTakes() throws {
        let result = try verify(
            """
            shop.example {
            \(interceptingProxy)
                handle_errors {
                    rewrite * /errors/{err.status_code}.html
                    handle /app/* {
                        reverse_proxy 10.0.0.5:8080
                    }
                    handle_path /errors/* {
                        root * /usr/share/detour
                        file_server
                    }
                }
            }

            """)
        XCTAssertEqual(try VerifyWorkspace.findings(result), ["caddy.error-page-missing-file:9"], result.stdout + result.stderr)
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "not listening")?.body, "an empty body")
    }

    /// Pages for some codes only, from a folder that lacks them: the codes the log shows
    /// handle_errors failing for are the missing page's, the others are not covered.
    func testPagesForSomeCodesAreMissingAndTheOthersUncovered() throws {
        let result = try verify(
            """
            shop.example {
            \(interceptingProxy)
                handle_errors {
                    @some expression `{err.status_code} in [502, 503]`
                    handle @some {
                        root * /srv/missing
                        rewrite * /errors/{err.status_code}.html
                        file_server
                    }
                }
            }

            """)
        XCTAssertEqual(
            try VerifyWorkspace.findings(result).sorted(), ["caddy.code-not-covered:1", "caddy.error-page-missing-file:12"], result.stdout + result.stderr)
    }

    /// basicauth inside handle_errors refuses the page's own request: Caddy answers the
    /// failure's status with no body (and a password prompt) and logs the refusal.
    func testAPasswordOnThePagesIsTheirProtection() throws {
        let result = try verify(
            """
            shop.example {
            \(interceptingProxy)
                handle_errors {
                    basicauth {
                        staff $2a$14$vhB1ZB9Clq6/nxSGpxXXxe7w0vbFSzYgXUT1vqHBtLrE/4fjUtB/u
                    }
            \(pages.split(separator: "\n").dropFirst().dropLast().joined(separator: "\n"))
                }
            }

            """)
        XCTAssertEqual(try VerifyWorkspace.findings(result), ["caddy.error-page-protected:9"], result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("caddyauth.Authentication"), result.stdout)
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "not listening")?.status, 502)
        // Before a page fetched from the failing upstream, the refusal is what stops it.
        let proxied = try verify(
            "shop.example {\n    reverse_proxy 10.0.0.5:8080\n    handle_errors {\n        basicauth {\n            staff $2a$14$vhB1ZB9Clq6/nxSGpxXXxe7w0vbFSzYgXUT1vqHBtLrE/4fjUtB/u\n        }\n        rewrite * /500.html\n        reverse_proxy 10.0.0.5:8080\n    }\n}\n"
        )
        XCTAssertEqual(try VerifyWorkspace.findings(proxied), ["caddy.error-page-protected:4"], proxied.stdout + proxied.stderr)
    }

    /// forward_auth asks an auth service of the site's own: the sandbox's lets every request
    /// in, so the application behind it is probed, its failures meeting the pages, rather than
    /// the auth service failing with the application and its answer passed on.
    func testAnAuthServiceLetsTheProbesIn() throws {
        let result = try verify(
            """
            shop.example {
                forward_auth 10.0.0.5:8080 {
                    uri /auth
                }
            \(interceptingProxy)
            \(pages)
            }

            """)
        XCTAssertEqual(try VerifyWorkspace.findings(result), [], result.stdout + result.stderr)
        XCTAssertEqual(try VerifyWorkspace.answer(result, "/", "answering 503")?.body, "detour's public/errors/503.html")
        XCTAssertTrue(try VerifyWorkspace.texts(result, "rewrites").contains { $0.contains("forward_auth 10.0.0.5:8080: a fake auth service") }, result.stdout)
    }
}
