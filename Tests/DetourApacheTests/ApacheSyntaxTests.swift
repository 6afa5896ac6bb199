import DetourDiagnostics
import DetourProxyCore
import DetourTestSupport
import Foundation
import XCTest

@testable import DetourApache

/// Apache's continuations, quoting, Define and `${VAR}`, conditional sections, includes from
/// ServerRoot, and bad input that must end in a located finding, never a crash or a hang.
final class ApacheSyntaxTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
        try folder.write(["pages/503.html": "<h1>down</h1>", "pages/504.html": "<h1>slow</h1>"])
    }

    override func tearDown() {
        folder.remove()
    }

    private func check(_ files: [String: String], serverRoot: String? = nil, environment: [String: String] = [:]) throws -> ProxyCheck.Report {
        try folder.write(files)
        return ApacheChecker.check(
            .init(main: folder.url.appendingPathComponent("apache.conf"), mainDisplay: "apache.conf", pages: nil, maps: [], serverRoot: serverRoot),
            environment: environment)
    }

    private func lines(_ report: ProxyCheck.Report) -> [String] {
        report.diagnostics.map { "\($0.location.description): \($0.rule)" }
    }

    func testContinuationsQuotesDefinesAndEnvironment() throws {
        let report = try check(
            [
                "apache.conf": """
                Define PAGES \(folder.path)/pages
                DocumentRoot /srv/none
                Alias /errors/ \\
                      "${PAGES}/"
                # A comment; ErrorDocument 503 /nowhere.html is not read.
                ErrorDocument 503 "/errors/503.html"
                ErrorDocument 504 /errors/${SLOW}.html
                ErrorDocument 502 /errors/${UNDEFINED}.html
                # Proxied, so the 5xx pages are used.
                ProxyPass /app/ http://127.0.0.1:9/
                ProxyErrorOverride On

                """
            ], environment: ["SLOW": "504"])
        // Only the undefined variable stays as written, and names no file.
        XCTAssertEqual(lines(report), ["apache.conf:8:1: apache.error-page-missing-file"])
        XCTAssertTrue(report.diagnostics.first?.message.contains("/errors/${UNDEFINED}.html") == true, "\(report.diagnostics)")
    }

    func testConditionalSectionsAndIncludes() throws {
        let report = try check([
            "apache.conf": """
            LoadModule alias_module /usr/lib/apache2/modules/mod_alias.so
            Alias /errors/ \(folder.path)/pages/
            <IfModule mod_alias.c>
                Include conf.d/*.conf
            </IfModule>
            <IfModule !alias_module>
                ErrorDocument 503 /errors/never.html
            </IfModule>
            <IfDefine !STAGING>
                ErrorDocument 504 /errors/missing-504.html
            </IfDefine>
            IncludeOptional optional.d/*.conf
            ProxyPass /app/ http://127.0.0.1:9/
            ProxyErrorOverride On
            LoadModule proxy_module /usr/lib/apache2/modules/mod_proxy.so

            """,
            "conf.d/10-pages.conf": "ErrorDocument 503 /errors/503.html\n",
        ])
        XCTAssertEqual(lines(report), ["apache.conf:10:5: apache.error-page-missing-file"])
        XCTAssertEqual(
            report.files,
            ["apache.conf", folder.path + "/conf.d/10-pages.conf"].map {
                $0.hasPrefix(FileManager.default.currentDirectoryPath + "/") ? String($0.dropFirst(FileManager.default.currentDirectoryPath.count + 1)) : $0
            })

        // Relative includes start at ServerRoot: the directive, else --server-root.
        try folder.write(["elsewhere/conf.d/x.conf": "ErrorDocument 503 /errors/from-elsewhere.html\n", "elsewhere/pages.conf": ""])
        let rooted = try check(
            ["apache.conf": "Alias /errors/ \(folder.path)/pages/\nInclude conf.d/x.conf\nProxyPass /app/ http://127.0.0.1:9/\nProxyErrorOverride On\n"],
            serverRoot: folder.path + "/elsewhere")
        XCTAssertEqual(
            lines(rooted),
            ["elsewhere/conf.d/x.conf:1:1: apache.error-page-missing-file"].map { _ in
                rooted.diagnostics.first.map { "\($0.location.path):1:1: apache.error-page-missing-file" } ?? ""
            })
        XCTAssertTrue(rooted.diagnostics.first?.location.path.hasSuffix("elsewhere/conf.d/x.conf") == true, "\(rooted.diagnostics)")
    }

    func testRegexAliasesAndProxies() throws {
        let report = try check([
            "apache.conf": """
            DocumentRoot /srv/none
            AliasMatch ^/errors/([0-9]+)\\.html$ \(folder.path)/pages/$1.html
            ErrorDocument 503 /errors/503.html
            ErrorDocument 502 /errors/505.html
            ProxyPassMatch ^/api/(.*)$ http://127.0.0.1:9000/$1
            ErrorDocument 500 /api/500.html

            """
        ])
        // 503 has its file through the regex, 505 has none, the API path is proxied, and the
        // ProxyPassMatch proxies without ProxyErrorOverride.
        XCTAssertEqual(
            lines(report),
            [
                "apache.conf:4:1: apache.error-page-missing-file", "apache.conf:6:1: apache.error-page-proxied",
                "apache.conf:5:1: apache.upstream-errors-pass-through",
            ])
    }

    /// A port Apache listens on that no virtual host names is answered by the main server
    /// (`a2enmod ssl` adds `Listen 443`): its pages are checked as a site's; a `<VirtualHost *>`
    /// takes every port.
    func testAPortNoVirtualHostTakesIsTheMainServers() throws {
        let host = "<VirtualHost *:80>\nServerName shop.test\nErrorDocument 503 /x.html\n</VirtualHost>\n"
        let uncovered = try check(["apache.conf": "Listen 80\nListen 443\n" + host])
        XCTAssertEqual(uncovered.coverage.map(\.name), ["shop.test", "(main server)"])
        let covered = try check(["apache.conf": "Listen 80\n" + host])
        XCTAssertEqual(covered.coverage.map(\.name), ["shop.test"])
        let everyPort = try check(["apache.conf": "Listen 80\nListen 8080\n" + host.replacingOccurrences(of: "*:80", with: "*")])
        XCTAssertEqual(everyPort.coverage.map(\.name), ["shop.test"])
    }

    func testWhatApacheRefuses() throws {
        XCTAssertEqual(lines(try check(["apache.conf": "<VirtualHost *:80>\nErrorDocument 503 /x.html\n"])), ["apache.conf:1:1: apache.syntax"])
        XCTAssertEqual(lines(try check(["apache.conf": "<Location />\n</Directory>\n"])), ["apache.conf:2:1: apache.syntax"])
        XCTAssertEqual(lines(try check(["apache.conf": "</Location>\n"])), ["apache.conf:1:1: apache.syntax"])
        XCTAssertEqual(lines(try check(["apache.conf": "<Location /\n</Location>\n"])), ["apache.conf:1:1: apache.syntax"])
        XCTAssertEqual(lines(try check(["apache.conf": "Include conf.d/missing.conf\n"])), ["apache.conf:1:1: apache.syntax"])
        XCTAssertEqual(lines(try check(["apache.conf": "Include nothing/*.conf\n"])), ["apache.conf:1:1: apache.syntax"])
        XCTAssertEqual(lines(try check(["apache.conf": "ErrorDocument 503 Sorry we are down\n"])), ["apache.conf:1:1: apache.syntax"])
        XCTAssertEqual(lines(try check(["apache.conf": "ErrorDocument 700 /x.html\n"])), ["apache.conf:1:1: apache.syntax"])
        XCTAssertEqual(lines(try check(["apache.conf": "ErrorDocument 302 /x.html\n"])), [], "Apache takes any status it knows")
        XCTAssertEqual(lines(try check(["apache.conf": "Include apache.conf\n"])), ["apache.conf:1:1: apache.syntax"], "a file that includes itself")
    }

    func testALoopThroughLinksIsLocated() throws {
        try folder.write(["conf/site.conf": "IncludeOptional \(folder.path)/conf/loop/*.conf\n"])
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/conf/loop", withDestinationPath: folder.path + "/conf")
        let file = try check(["apache.conf": "Include conf/site.conf\n"])
        XCTAssertEqual(lines(file), ["\(folder.path)/conf/site.conf:1:1: apache.syntax"], "the same file under another path is the same file")
        XCTAssertTrue(file.diagnostics.first?.message.contains("already being read") == true, "\(file.diagnostics)")

        // A folder that holds a link to itself: read once, the link reported, no endless descent.
        let folders = try check(["apache.conf": "IncludeOptional conf/\n"])
        XCTAssertEqual(lines(folders), ["apache.conf:1:1: apache.syntax", "\(folder.path)/conf/site.conf:1:1: apache.syntax"])
        XCTAssertTrue(folders.diagnostics.first?.message.contains("again through a link") == true, "\(folders.diagnostics)")
    }

    /// Seen on Apache 2.4.71: `Include folder/` reads its hidden files too, `folder/*` does not
    /// (and with only a hidden file, matches nothing).
    func testAFolderIncludeReadsHiddenFilesAndAGlobDoesNot() throws {
        try folder.write(["conf.d/.hidden.conf": "ErrorDocument 503 three words here\n"])
        XCTAssertEqual(lines(try check(["apache.conf": "Include conf.d/\n"])), ["\(folder.path)/conf.d/.hidden.conf:1:1: apache.syntax"])
        let glob = try check(["apache.conf": "Include conf.d/*\n"])
        XCTAssertEqual(lines(glob), ["apache.conf:1:1: apache.syntax"])
        XCTAssertTrue(glob.diagnostics.first?.message.contains("matches no file") == true, "\(glob.diagnostics)")
    }

    func testIncludedPathsAreNamedWithoutDotsOrDoubleSlashes() {
        XCTAssertEqual(ApacheReader.normalized("/etc/apache2/sites-enabled/shop.conf"), "/etc/apache2/sites-enabled/shop.conf")
        XCTAssertEqual(ApacheReader.normalized("/etc/apache2/./conf.d//../sites/a.conf"), "/etc/apache2/sites/a.conf")
        XCTAssertEqual(ApacheReader.normalized("/etc/apache2/.hidden.conf"), "/etc/apache2/.hidden.conf")
        XCTAssertEqual(ApacheReader.normalized("../conf/a.conf"), "../conf/a.conf")
        XCTAssertEqual(ApacheReader.normalized("/etc/apache2/conf.d/"), "/etc/apache2/conf.d")
        XCTAssertEqual(ApacheReader.normalized("/"), "/")
    }

    func testBadInputIsLocatedNeverACrash() throws {
        try folder.writeData("apache.conf", Data([0x41, 0x0A, 0x00, 0xFF, 0x0A]))
        let binary = ApacheChecker.check(
            .init(main: folder.url.appendingPathComponent("apache.conf"), mainDisplay: "apache.conf", pages: nil, maps: []), environment: [:])
        XCTAssertEqual(lines(binary), ["apache.conf:2:1: apache.syntax"])

        let deep = String(repeating: "<Location /a>\n", count: 3000) + String(repeating: "</Location>\n", count: 3000)
        XCTAssertEqual(lines(try check(["apache.conf": deep])), ["apache.conf:101:1: apache.section-depth"])
        XCTAssertEqual(
            try check(["apache.conf": "DocumentRoot \(folder.path)/pages\nErrorDocument 503 /503.html \\"]).diagnostics, [],
            "a backslash on the last line joins nothing")

        var random = SplitMix64(state: 29)
        let alphabet =
            Array("<VirtualHost *:80> </VirtualHost> <Location /> </Location> ErrorDocument 503 /e.html \"'\\${}\n# Include x ProxyPass ! Alias".utf8) + [
                0xC3, 0x28, 0x09,
            ]
        for round in 0..<300 {
            let bytes = (0..<Int(random.next() % 400)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            try folder.writeData("apache.conf", Data(bytes))
            let report = ApacheChecker.check(
                .init(main: folder.url.appendingPathComponent("apache.conf"), mainDisplay: "apache.conf", pages: nil, maps: []), environment: [:])
            for diagnostic in report.diagnostics {
                XCTAssertGreaterThanOrEqual(diagnostic.location.line, 0, "round \(round): \(diagnostic)")
                XCTAssertFalse(diagnostic.location.path.isEmpty, "round \(round): \(diagnostic)")
            }
        }
    }
}
