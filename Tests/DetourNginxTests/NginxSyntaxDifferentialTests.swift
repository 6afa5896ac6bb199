import DetourDiagnostics
import DetourTestSupport
import Foundation
import XCTest

@testable import DetourNginx

/// Hundreds of broken configurations, made by adding, removing or doubling one structural
/// character of a valid one, judged by the real `nginx -t` and by detour's parser: where nginx
/// accepts, detour reports nothing; where nginx stops at a syntax error, detour's first error is
/// on the same line with nginx's words; where it stops at a directive it refuses (an unknown
/// name, a wrong argument count), detour reports that too at nginx's line. Mutants nginx rejects
/// for other reasons (a bad argument value) are skipped, but most must count.
/// `FUZZ_SEED=<n>` explores other mutants; a disagreement found there belongs in the corpus.
final class NginxSyntaxDifferentialTests: XCTestCase {
    private static let base = """
        events { worker_connections 64; }
        http {
            # detour's pages
            map $http_accept $errors_format { default html; ~json json; location x; }
            upstream app { server 127.0.0.1:9000 weight=2; keepalive 8; }
            server {
                listen 127.0.0.1:8080;
                server_name "shop.test" 'www.shop.test';
                error_page 500 502 503 504 /errors/$status.html;
                add_header X-Note "say \\"hi\\"; {x}" always;
                set $target ${scheme}://${host};
                location ~ ^/e/(?<page>[0-9]+)\\.html$ { internal; alias /srv/errors/$page.html; }
                location / {
                    if ($request_method = POST) { return 405; }
                    proxy_pass http://app;
                }
            }
        }

        """

    private static let structural: [UInt8] = Array(";{}\"'#\\$\n ".utf8)

    private static func mutant(_ bytes: [UInt8], using random: inout SplitMix64) -> [UInt8] {
        var bytes = bytes
        let positions = bytes.indices.filter { structural.contains(bytes[$0]) }
        switch random.next() % 3 {
        case 0:
            bytes.remove(at: positions.randomElement(using: &random)!)
        case 1:
            let position = positions.randomElement(using: &random)!
            bytes.insert(bytes[position], at: position)
        default:
            bytes.insert(structural.randomElement(using: &random)!, at: Int.random(in: 0...bytes.count, using: &random))
        }
        return bytes
    }

    private enum Verdict {
        case accepts
        /// nginx's first `[emerg]`, and its line when it names one.
        case rejects(message: String, line: Int?)
    }

    private static func nginxVerdict(_ file: URL, nginx: URL, scratch: TemporaryFolder) throws -> Verdict? {
        let verdict = try ProcessRunner.run(nginx, ["-t", "-p", scratch.path + "/", "-c", file.path, "-e", scratch.path + "/error.log"])
        if verdict.status == 0 { return .accepts }
        guard let emerg = verdict.stderr.split(separator: "\n").first(where: { $0.contains("[emerg]") }),
            let messageStart = emerg.range(of: "[emerg] ")
        else { return nil }
        guard let inRange = emerg.range(of: " in ", options: .backwards),
            let line = Int(emerg[inRange.upperBound...].split(separator: ":").last ?? "")
        else {
            return .rejects(message: String(emerg[messageStart.upperBound...]), line: nil)
        }
        return .rejects(message: String(emerg[messageStart.upperBound..<inRange.lowerBound]), line: line)
    }

    /// nginx's lexical and structural errors, the ones a parser answers for.
    private static func isSyntaxError(_ message: String) -> Bool {
        ["unexpected ", "is not terminated by", "has no opening", "unexpected end of file"].contains { message.contains($0) }
    }

    /// What nginx checks of each directive, and of a block or the file once read: the
    /// directive table's part (`NginxDirectiveCheck`).
    private static func isDirectiveError(_ message: String) -> Bool {
        [
            "unknown directive", "is not allowed here", "invalid number of arguments", "it must be \"on\" or \"off\"", "is duplicate",
            "no servers are inside upstream", "duplicate location", "invalid port in \"", "no \"events\" section", "in condition",
        ].contains { message.contains($0) }
    }

    /// Found only once the whole file is read, so nginx names them after any error in it.
    private static func isFoundAtTheEnd(_ diagnostic: Diagnostic) -> Bool {
        diagnostic.message.hasPrefix("duplicate location") || diagnostic.message.hasPrefix("no \"events\"")
    }

    func testParserAgreesWithNginxOnMutatedConfigurations() throws {
        let nginx = try RequiredTool.find("nginx")
        let scratch = try TemporaryFolder()
        defer { scratch.remove() }
        let file = scratch.url.appendingPathComponent("mutant.conf")
        var random = SplitMix64(state: UInt64(ProcessInfo.processInfo.environment["FUZZ_SEED"] ?? "") ?? 2026)
        var compared = 0
        var skipped = 0
        let original = Array(Self.base.utf8)
        for round in 0..<300 {
            let text = Self.mutant(original, using: &random)
            try Data(text).write(to: file)
            guard let verdict = try Self.nginxVerdict(file, nginx: nginx, scratch: scratch) else {
                XCTFail("mutant \(round): cannot read nginx's verdict")
                continue
            }
            let loaded = NginxConfigLoader(main: file, displayPath: "mutant.conf").load()
            let ours = (loaded.diagnostics + NginxDirectiveCheck.check(loaded.config, syntaxErrors: loaded.diagnostics)).sortedForOutput()
            let shown = String(decoding: text, as: UTF8.self)
            guard case .rejects(let message, let line) = verdict else {
                compared += 1
                XCTAssertEqual(ours.map(\.message), [], "mutant \(round): nginx accepts it\n\(shown)")
                continue
            }
            if Self.isDirectiveError(message) {
                compared += 1
                XCTAssertTrue(
                    ours.contains { $0.message.hasPrefix(message) && (line == nil || $0.location.line == line) },
                    "mutant \(round): nginx says line \(line.map(String.init) ?? "-"): \(message); detour: \(ours.map(\.shown))\n\(shown)")
                continue
            }
            guard let line, Self.isSyntaxError(message) else {
                skipped += 1
                continue
            }
            compared += 1
            guard let first = ours.first(where: { !Self.isFoundAtTheEnd($0) }) else {
                XCTFail("mutant \(round): nginx says line \(line): \(message); detour reports nothing\n\(shown)")
                continue
            }
            XCTAssertEqual(
                first.location.line, line,
                "mutant \(round): nginx says line \(line): \(message); detour: \(first.location.description) \(first.message)\n\(shown)")
            XCTAssertTrue(first.message.hasPrefix(message), "mutant \(round): nginx says '\(message)', detour '\(first.message)'\n\(shown)")
        }
        XCTAssertGreaterThan(compared, 150, "too few mutants said anything about syntax (\(skipped) skipped)")
    }
}
