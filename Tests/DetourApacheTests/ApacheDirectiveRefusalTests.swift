import DetourDiagnostics
import DetourProxyCore
import DetourTestSupport
import Foundation
import XCTest

@testable import DetourApache

/// A directive no loaded module adds, and a word `Options` or `AllowOverride` does not take:
/// `apache2 -t` refuses each at its line, and `detour check apache` says so at the same line;
/// each near miss passes both.
final class ApacheDirectiveRefusalTests: XCTestCase {
    private let head = """
        ServerName localhost
        ErrorLog /dev/null
        LoadModule mpm_event_module /usr/lib/apache2/modules/mod_mpm_event.so
        LoadModule authz_core_module /usr/lib/apache2/modules/mod_authz_core.so

        """

    /// Each body after `head`, and the line Apache refuses (nil: it starts).
    private let cases: [(String, Int?)] = [
        ("<Directory /srv>\nOptions +FollowSymlinksIfOwnerMatch\n</Directory>\n", 6),
        ("<Directory /srv>\nOptions +symlinksifownermatch -indexes\n</Directory>\n", nil),
        ("<Directory /srv>\nOptions +Indexes FollowSymLinks\n</Directory>\n", 6),
        ("<Directory /srv>\nOptions None +Indexes\n</Directory>\n", nil),
        ("<Directory /srv>\nOptions -All\n</Directory>\n", 6),
        ("<Directory /srv>\nOptions Indexes None\n</Directory>\n", 6),
        ("<Directory /srv>\nAllowOverride Bogus\n</Directory>\n", 6),
        ("<Directory /srv>\nAllowOverride FileInfo Options=Indexes,MultiViews\n</Directory>\n", nil),
        ("ProxyPass /app/ http://127.0.0.1:8080/\n", 5),
        // LoadModule acts as the file is read, the other directives after: order does not matter.
        ("ProxyPass /app/ http://127.0.0.1:8080/\nLoadModule proxy_module /usr/lib/apache2/modules/mod_proxy.so\n", nil),
        ("LoadModule proxy_module /usr/lib/apache2/modules/mod_proxy.so\nProxyPass /app/ http://127.0.0.1:8080/\n", nil),
        ("<Proxy *>\nRequire all granted\n</Proxy>\n", 5),
        ("ServerAlais www.example.com\n", 5),
        ("<IfModule proxy_module>\nProxyPass /app/ http://127.0.0.1:8080/\n</IfModule>\n", nil),
        ("<IfDirective ProxyPass>\nProxyPass /app/ http://127.0.0.1:8080/\n</IfDirective>\n", nil),
        ("<IfDirective !ProxyPass>\nServerAdmin ops@example.com\n</IfDirective>\n", nil),
    ]

    func testDetourRefusesWhereApacheDoes() throws {
        let apache = try RequiredTool.find("apache2")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for (body, line) in cases {
            try folder.write(["apache.conf": head + body])
            let config = folder.url.appendingPathComponent("apache.conf")
            let real = try ProcessRunner.run(apache, ["-t", "-f", config.path])
            let said = real.stderr.range(of: "Syntax error on line ").map { Int(real.stderr[$0.upperBound...].prefix { $0.isNumber }) } ?? nil
            XCTAssertEqual(real.status == 0 ? nil : said, line, "apache2 -t on:\n\(body)\n\(real.stderr)")
            let report = ApacheChecker.check(.init(main: config, mainDisplay: "apache.conf", pages: nil, maps: [], serverRoot: folder.path))
            let refusals = report.diagnostics.filter { $0.rule == ApacheRules.syntax.id }
            XCTAssertEqual(refusals.map(\.location.line), line.map { [$0] } ?? [], "detour on:\n\(body)\n\(refusals.map(\.message))")
        }
    }

    /// Apache's words are in the finding, and a module's directive names the module to load.
    func testTheFindingNamesTheModule() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(["apache.conf": head + "ProxyPass /app/ http://127.0.0.1:8080/\n"])
        let report = ApacheChecker.check(
            .init(main: folder.url.appendingPathComponent("apache.conf"), mainDisplay: "apache.conf", pages: nil, maps: [], serverRoot: folder.path))
        let finding = try XCTUnwrap(report.diagnostics.first)
        XCTAssertTrue(finding.message.contains("'ProxyPass' needs proxy_module"), finding.message)
        XCTAssertTrue(finding.message.contains("Invalid command 'ProxyPass'"), finding.message)
        XCTAssertEqual(finding.notes.map(\.message), ["fix: load it (on Debian: a2enmod proxy)"])
    }

    /// A configuration that loads a module detour's table does not know may add any name; one
    /// that loads none (a fragment) is read as if its modules were loaded.
    func testUnknownModulesAndFragmentsAreGivenTheBenefit() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for text in [
            head + "LoadModule security2_module /usr/lib/apache2/modules/mod_security2.so\nSecRuleEngine On\n",
            "ProxyPass /app/ http://127.0.0.1:8080/\nSecRuleEngine On\n",
        ] {
            try folder.write(["apache.conf": text])
            let report = ApacheChecker.check(
                .init(main: folder.url.appendingPathComponent("apache.conf"), mainDisplay: "apache.conf", pages: nil, maps: [], serverRoot: folder.path))
            XCTAssertEqual(report.diagnostics.filter { $0.rule == ApacheRules.syntax.id }.map(\.message), [], text)
        }
    }
}
