import DetourRules
import DetourTestSupport
import Foundation
import XCTest

/// Every rule explained where a user looks: `detour check --explain` for each, a page for each
/// on the help site the build writes, and every finding linking its page in text, JSON and SARIF.
final class RuleHelpTests: XCTestCase {
    private var folder: TemporaryFolder!
    private let base = "https://help.sample.test/"

    override func setUpWithError() throws {
        folder = try SampleSite.make()
        XCTAssertEqual(try ProcessRunner.detour(["build", "--quiet"], in: folder.url).status, 0)
    }

    override func tearDown() {
        folder.remove()
    }

    /// A server whose pages fall into the proxied location: `nginx.error-page-proxied`, and the
    /// page missing under the map.
    private let proxiedPages = """
        events {}
        http {
            server {
                listen 127.0.0.1:8080;
                error_page 502 /errors/502.html;
                proxy_intercept_errors on;
                location / { proxy_pass http://127.0.0.1:9000; }
            }
        }

        """

    private func page(_ url: String) -> URL {
        folder.url.appendingPathComponent("public/" + url.dropFirst(base.count) + "index.html")
    }

    func testEveryRuleHasAnExplanationAndAPageThatShowItsHitAndNearMiss() throws {
        let index = try String(contentsOf: folder.url.appendingPathComponent("public/rules/index.html"), encoding: .utf8)
        var withHits = 0
        for rule in RuleBook.all {
            let explained = try ProcessRunner.detour(["check", "--explain", rule.id], in: folder.url)
            XCTAssertEqual(explained.status, 0, rule.id + explained.stderr)
            XCTAssertTrue(explained.stdout.hasPrefix("\(rule.id) (\(rule.severity.rawValue), "), explained.stdout)
            let explanation = try XCTUnwrap(RuleExplanation(rule.id))
            XCTAssertTrue(explained.stdout.contains(explanation.sentence), explained.stdout)
            XCTAssertTrue(explained.stdout.hasSuffix("On the help site: \(base)rules/\(rule.id)/\n"), explained.stdout)
            let html = try String(contentsOf: page(base + "rules/\(rule.id)/"), encoding: .utf8)
            XCTAssertTrue(html.contains("<h1><code>\(rule.id)</code></h1>"), rule.id)
            XCTAssertTrue(index.contains("<a href=\"\(rule.id)/\"><code>\(rule.id)</code></a>"), "the list links \(rule.id)")
            guard let hit = explanation.hit else { continue }
            withHits += 1
            // The hit is the tests' own: what detour says of it names the rule.
            XCTAssertTrue(hit.output.contains("[\(rule.id)]"), "\(rule.id)'s hit raises it: \(hit.output)")
            XCTAssertNotNil(explanation.nearMiss, "\(rule.id) has a near miss")
            for file in hit.files + (explanation.nearMiss?.files ?? []) {
                XCTAssertTrue(explained.stdout.contains("  \(file.name):\n"), "\(rule.id): \(file.name)")
                XCTAssertTrue(html.contains("<p class=\"file\">\(file.name)</p>"), "\(rule.id)'s page shows \(file.name)")
            }
        }
        // Every server rule but syntax, limits and includes has its hit and near miss.
        XCTAssertGreaterThanOrEqual(withHits, 46)
    }

    func testAFindingLinksItsRulePageInEveryFormat() throws {
        try folder.write(["deploy/nginx.conf": proxiedPages])
        let arguments = ["check", "nginx", "deploy/nginx.conf", "--map", "/usr/share/detour=public", "--quiet"]
        let url = base + "rules/nginx.error-page-proxied/"
        let text = try ProcessRunner.detour(arguments, in: folder.url)
        XCTAssertTrue(text.stderr.contains("[nginx.error-page-proxied]"), text.stderr)
        XCTAssertTrue(text.stderr.contains("\n  help: \(url)\n"), text.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: page(url).path), "the link leads to a page the build wrote")

        let json = try ProcessRunner.detour(arguments + ["--format", "json"], in: folder.url)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let findings = try XCTUnwrap(report["diagnostics"] as? [[String: Any]])
        XCTAssertFalse(findings.isEmpty)
        for finding in findings {
            let rule = try XCTUnwrap(finding["rule"] as? String)
            XCTAssertEqual(finding["help"] as? String, base + "rules/\(rule)/")
        }

        let sarif = try ProcessRunner.detour(arguments + ["--format", "sarif"], in: folder.url)
        let log = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as? [String: Any])
        let run = try XCTUnwrap((log["runs"] as? [[String: Any]])?.first)
        let rules = try XCTUnwrap(((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]])
        XCTAssertTrue(rules.contains { $0["id"] as? String == "nginx.error-page-proxied" })
        for rule in rules {
            let id = try XCTUnwrap(rule["id"] as? String)
            XCTAssertEqual(rule["helpUri"] as? String, base + "rules/\(id)/")
            XCTAssertTrue(FileManager.default.fileExists(atPath: page(base + "rules/\(id)/").path), id)
        }
    }

    func testBuildFindingsLinkTheirPagesToo() throws {
        try folder.write(["content/articles/linked.md": "---\ntitle: Linked\nsummary: A link to nowhere.\n---\n\nSee [the guide](CONTRIBUTING.md).\n"])
        let build = try ProcessRunner.detour(["build", "--quiet"], in: folder.url)
        XCTAssertEqual(build.status, 0, build.stderr)
        XCTAssertTrue(build.stderr.contains("warning: [markdown.broken-link]"), build.stderr)
        XCTAssertTrue(build.stderr.contains("\n  help: \(base)rules/markdown.broken-link/\n"), build.stderr)
        // --base-url is where the site is published, so its pages are there.
        let staged = try ProcessRunner.detour(["build", "--quiet", "--base-url", "https://staging.sample.test"], in: folder.url)
        XCTAssertTrue(staged.stderr.contains("\n  help: https://staging.sample.test/rules/markdown.broken-link/\n"), staged.stderr)
    }

    func testWithoutAProjectTheHelpLineNamesTheCommandThatExplains() throws {
        let elsewhere = try TemporaryFolder()
        defer { elsewhere.remove() }
        try elsewhere.write(["nginx.conf": proxiedPages])
        let text = try ProcessRunner.detour(["check", "nginx", "nginx.conf", "--quiet"], in: elsewhere.url)
        XCTAssertTrue(text.stderr.contains("\n  help: detour check --explain nginx.error-page-proxied\n"), text.stderr)
        let json = try ProcessRunner.detour(["check", "nginx", "nginx.conf", "--format", "json"], in: elsewhere.url)
        XCTAssertFalse(json.stdout.contains("\"help\""), "no page to link without a help site")
    }

    func testASiteWithoutRulePagesIsNotLinked() throws {
        let site = try String(contentsOf: folder.url.appendingPathComponent("content/site.yml"), encoding: .utf8)
        try folder.write(["content/site.yml": site + "\nrule_pages: false\n", "deploy/nginx.conf": proxiedPages])
        XCTAssertEqual(try ProcessRunner.detour(["build", "--quiet"], in: folder.url).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("public/rules").path))
        let text = try ProcessRunner.detour(["check", "nginx", "deploy/nginx.conf", "--map", "/usr/share/detour=public", "--quiet"], in: folder.url)
        XCTAssertTrue(text.stderr.contains("\n  help: detour check --explain nginx.error-page-proxied\n"), text.stderr)
    }

    func testAMisspeltRuleIsNamedWithTheClosest() throws {
        let result = try ProcessRunner.detour(["check", "--explain", "nginx.error-page-proxed"], in: folder.url)
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("no rule is named 'nginx.error-page-proxed'; did you mean 'nginx.error-page-proxied'?"), result.stderr)
    }

    /// The book lists every content rule the code raises, and no other: a rule added to the
    /// code without its entry would have no page to link.
    func testTheBookListsEveryContentRuleTheCodeRaises() throws {
        let prefixes = Set(RuleBook.contentRules.map { String($0.id.prefix { $0 != "." }) })
        let pattern = try NSRegularExpression(pattern: "\"((?:\(prefixes.sorted().joined(separator: "|")))\\.[a-z0-9-]+)\"")
        var raised = Set<String>()
        let sources = Repository.root.appendingPathComponent("Sources")
        let walker = try XCTUnwrap(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        for case let file as URL in walker where file.pathExtension == "swift" && !file.path.contains("/DetourRules/") {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let range = Range(match.range(at: 1), in: text) else { continue }
                raised.insert(String(text[range]))
            }
        }
        // File names the code writes that look like ids.
        raised.subtract(["site.yml", "logo.svg"])
        XCTAssertEqual(raised.subtracting(RuleBook.contentRules.map(\.id)), [], "raised but not in the book")
        XCTAssertEqual(Set(RuleBook.contentRules.map(\.id)).subtracting(raised), [], "in the book but never raised")
    }
}
