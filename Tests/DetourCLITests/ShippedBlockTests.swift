import DetourCodeBlockCheck
import DetourContent
import DetourDiagnostics
import DetourLogs
import DetourTestSupport
import Foundation
import XCTest

/// The knowledge base's advice holds when copied: every fenced configuration block in the
/// shipped articles (and their translations) and in the codes' notes loads on its real server,
/// and every shell block parses and names only commands Debian has.
final class ShippedBlockTests: XCTestCase {
    func testEveryConfigurationBlockLoadsOnItsServer() throws {
        try requireRoot()
        var judged: [ConfigBlockOracle.Server: Int] = [:]
        for block in try Self.shippedBlocks() {
            guard let server = ConfigBlockOracle.servers[block.language] else { continue }
            judged[server, default: 0] += 1
            if let refusal = try ConfigBlockOracle.refusal(of: block.code, by: server) {
                XCTFail("\(block.start.path):\(block.start.line):\(block.start.column): \(server.rawValue) refuses this block: \(refusal)")
            }
        }
        print("configuration blocks loaded on their servers: \(judged.map { "\($0.key.rawValue) \($0.value)" }.sorted())")
        XCTAssertGreaterThan(judged[.nginx] ?? 0, 5, "the articles' nginx blocks were found")
        XCTAssertGreaterThan(judged[.apache] ?? 0, 0, "the articles' Apache blocks were found")
    }

    func testEveryShellBlockParsesAndNamesDebianCommands() throws {
        var judged = 0
        for block in try Self.shippedBlocks() where ShellBlockCommands.languages.contains(block.language) {
            judged += 1
            for problem in try ShellBlockCommands.problems(block.code) {
                XCTFail("\(block.start.path):\(block.start.line):\(block.start.column): \(problem)")
            }
        }
        XCTAssertGreaterThan(judged, 2, "the articles' shell blocks were found")
    }

    /// The commands `detour diagnose` says to run (the articles' `confirm`) hold as the shell
    /// blocks do, filled as a log would fill them.
    func testEveryConfirmCommandParsesAndNamesDebianCommands() throws {
        let (loaded, problems) = ContentLoader(root: Repository.content, displayRoot: "content").load()
        let articles = try XCTUnwrap(loaded, "\(problems)").articles
        var judged = 0
        for article in articles {
            for command in article.confirmation.commands {
                judged += 1
                for problem in try ShellBlockCommands.problems(LogConfirmation.filled(command.text, upstreams: ["127.0.0.1:8080"])) {
                    XCTFail("\(article.source.path): confirm \(command.server ?? ""): \(problem)")
                }
            }
        }
        XCTAssertGreaterThan(judged, 20, "the articles' confirm commands were found")
    }

    /// The oracle refuses what the servers refuse: a planted fault in each language.
    func testAPlantedFaultIsRefusedByEachServer() throws {
        try requireRoot()
        let faults: [(ConfigBlockOracle.Server, String, String)] = [
            (.nginx, "proxy_read_timout 60s;", "unknown directive \"proxy_read_timout\""),
            (.nginx, "location / {\n    proxy_pass http://app;\n", "unexpected end of file"),
            (.apache, "ResponseFieldSize 32768", "Invalid command 'ResponseFieldSize'"),
            (.caddy, "reverse_prox app:8080", "unrecognized directive: reverse_prox"),
            (.haproxy, "server app1 app:8080 chek", "unknown keyword 'chek'"),
            (.phpFPM, "pm.max_childs = 5", "unknown entry 'pm.max_childs'"),
            (.varnish, "sub vcl_backend_response { set beresp.gracee = 1h; }", "Symbol not found: 'beresp.gracee'"),
        ]
        for (server, code, expected) in faults {
            let refusal = try ConfigBlockOracle.refusal(of: code, by: server)
            XCTAssertTrue(refusal?.contains(expected) == true, "\(server.rawValue) on \(code): \(refusal ?? "accepted")")
        }
        // And accepts the same blocks written right, the names they proxy to resolving.
        XCTAssertNil(try ConfigBlockOracle.refusal(of: "location / {\n    proxy_pass http://app:8080;\n}", by: .nginx))
        XCTAssertNil(try ConfigBlockOracle.refusal(of: "ProxyPass / http://app:8080/ responsefieldsize=32768", by: .apache))
        XCTAssertNil(try ConfigBlockOracle.refusal(of: "server app1 app:8080 check", by: .haproxy))
        XCTAssertNil(try ConfigBlockOracle.refusal(of: "sub vcl_backend_response { set beresp.grace = 1h; }", by: .varnish))
        XCTAssertEqual(ConfigBlockOracle.names(in: "proxy_pass http://app;\nfastcgi_pass php:9000;\nroot /var/www;"), ["app", "php"])
    }

    func testAShellBlockWithAnUnknownCommandOrBadSyntaxIsCaught() throws {
        XCTAssertEqual(try ShellBlockCommands.problems("sudo -u www-data ls /var/www | grep x && cd /tmp"), [])
        XCTAssertEqual(ShellBlockCommands.commands(in: "A=1 sudo -u nobody nginx -T 2>/dev/null | grep -n 'root ' # rooot"), ["sudo", "nginx", "grep"])
        XCTAssertEqual(
            ShellBlockCommands.commands(in: "nginx -T 2>&1 | grep -nE '(deny|allow)' && curl -H \"Cookie: $(head -c 9 /dev/zero | tr '\\0' x)\" h"),
            ["nginx", "grep", "curl", "head", "tr"], "a quoted | is no pipe, 2>&1 no list")
        let unknown = try ShellBlockCommands.problems("nginx -T | rooot")
        XCTAssertEqual(unknown.count, 1, "\(unknown)")
        XCTAssertTrue(unknown.first?.contains("`rooot`") == true, "\(unknown)")
        XCTAssertTrue(try ShellBlockCommands.problems("if true; then ls").first?.hasPrefix("bash -n:") == true)
    }

    /// Every article that gives a server configuration ends with the check of it: a shell block
    /// that runs each of those servers' own test and a curl that shows the error gone.
    func testEveryArticleWithConfigurationEndsWithItsTestAndACurl() throws {
        let (loaded, problems) = ContentLoader(root: Repository.content, displayRoot: "content").load()
        let content = try XCTUnwrap(loaded, "\(problems)")
        let tests = [
            "nginx": ["nginx -t"], "apache": ["apache2ctl configtest", "apache2 -t"], "caddyfile": ["caddy validate"], "haproxy": ["haproxy -c"],
            "ini": ["php-fpm8.2 -t"], "vcl": ["varnishd -C"],
        ]
        var checked = 0
        for article in content.articles {
            let servers = Set(article.codeBlocks.map(\.language)).intersection(tests.keys).sorted()
            guard !servers.isEmpty else { continue }
            checked += 1
            guard let last = article.codeBlocks.last, ["sh", "bash", "shell"].contains(last.language) else {
                XCTFail("\(article.slug): ends with no shell block that tests the configuration it gives and shows the error gone")
                continue
            }
            for server in servers where !tests[server]!.contains(where: last.code.contains) {
                XCTFail("\(last.start.path):\(last.start.line): the last block does not run \(tests[server]![0]) for the \(server) block above it")
            }
            XCTAssertTrue(last.code.contains("curl "), "\(last.start.path):\(last.start.line): the last block has no curl that shows the error gone")
        }
        XCTAssertGreaterThan(checked, 10)
    }

    private typealias Block = (language: String, code: String, start: SourceLocation)

    /// Every fenced block of the shipped content, located in its file.
    private static func shippedBlocks() throws -> [Block] {
        let (loaded, problems) = ContentLoader(root: Repository.content, displayRoot: "content").load()
        let content = try XCTUnwrap(loaded, "\(problems)")
        let articles = CodeBlockCheck.articleBlocks(content).map { ($0.language, $0.code, $0.start) }
        let notes = content.codes.flatMap { code in
            [(code.advice, code.adviceDocument), (code.operatorNotes, code.operatorNotesDocument)].flatMap { text, document -> [Block] in
                guard let text, let document else { return [] }
                return document.fencedCodeBlocks.map {
                    ($0.language, $0.code, SourceLocation(path: text.location.path, line: text.location.line + $0.fenceLine, column: text.location.column))
                }
            }
        }
        return articles + notes
    }

    /// The servers are run in a mount namespace of their own, which takes root (CI runs as root).
    private func requireRoot() throws {
        guard getuid() != 0 else { return }
        let message = "loading the articles' blocks on the real servers needs root (a mount namespace)"
        if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail(message + " under CI=true") }
        throw XCTSkip(message)
    }
}
