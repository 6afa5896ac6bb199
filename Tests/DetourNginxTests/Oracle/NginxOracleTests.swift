import DetourNginx
import DetourProxyCore
import DetourTestSupport
import Foundation
import XCTest

/// The runtime oracle for `detour check nginx`: generated configurations run on the real nginx
/// with a misbehaving upstream, every site probed, and what visitors got compared with what
/// detour says (`OracleVerdict`). `make check-oracle N=… SEED=…` runs N of them.
final class NginxOracleTests: XCTestCase {
    func testDetourAgreesWithNginxOnGeneratedConfigurations() throws {
        _ = try RequiredTool.find("nginx")
        let upstream = try FakeUpstream(.byPath)
        defer { upstream.stop() }
        let pages = try TemporaryFolder()
        defer { pages.remove() }
        try OracleProbe.writePages(NginxConfigGenerator.codes, into: pages.url.appendingPathComponent("errors"))
        var generator = NginxConfigGenerator(random: SplitMix64(state: OracleTally.seed))
        var tally = OracleTally(server: "nginx")
        var written = Set<String>()
        for _ in 0..<OracleTally.count {
            let port = LoopbackPort.free()
            let generated = generator.configuration(port: port, upstream: upstream.port, pages: pages.path)
            for statement in generated.text.split(whereSeparator: { $0 == "\n" || $0 == ";" || $0 == "{" }) {
                if let word = statement.split(separator: " ").first { written.insert(String(word)) }
            }
            let nginx = try NginxServer(config: generated.text)
            defer { nginx.stop() }
            try nginx.folder.write(["htpasswd": "staff:{PLAIN}secret\n"])
            let config = nginx.folder.url.appendingPathComponent("nginx.conf")
            let report = NginxChecker.check(.init(main: config, mainDisplay: "nginx.conf", pages: pages.url.appendingPathComponent("errors"), maps: []))
            guard LoopbackPort.waitUntilOpen(port) else {
                let refused = report.diagnostics.contains { $0.severity == .error }
                if ProcessInfo.processInfo.environment["ORACLE_TRACE"] != nil { print(generated.text, nginx.errorLog, report.diagnostics.map(\.message)) }
                tally.record(
                    configuration: generated.text,
                    disagreements: refused ? [] : ["nginx refused the configuration (\(nginx.errorLog)); detour reported no error"])
                continue
            }
            let probes = OracleVerdict.probe(port: port, upstream: upstream, sites: generated.sites.map { ($0.host, $0.paths) })
            if ProcessInfo.processInfo.environment["ORACLE_TRACE"] != nil {
                print(generated.text, probes.flatMap { $0 }.map(\.description).joined(separator: "\n"), report.diagnostics.map(\.message))
            }
            let sites = zip(generated.sites, probes).map { OracleVerdict.Site(host: $0.host, lines: $0.lines, probes: $1) }
            tally.record(
                configuration: generated.text,
                disagreements: OracleVerdict.disagreements(
                    sites: sites, diagnostics: report.diagnostics, file: "nginx.conf", codes: Set(NginxConfigGenerator.codes)))
        }
        tally.report()
        tally.dump()
        XCTAssertEqual(tally.disagreements.count, 0, tally.disagreements.prefix(3).joined(separator: "\n\n"))
        // Every directive of the vocabulary is written somewhere in the sample.
        let vocabulary = try String(contentsOf: NginxConfigGenerator.vocabularyFile, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
        if OracleTally.count >= 50 {
            for directive in vocabulary { XCTAssertTrue(written.contains(String(directive)), "\(directive) is never generated") }
        }
    }
}
