import DetourProxyCore
import DetourTestSupport
import Foundation
import XCTest

@testable import DetourCaddy

/// The runtime oracle for `detour check caddy`: generated Caddyfiles run on the real Caddy with
/// a misbehaving upstream, every site probed, and what visitors got compared with what detour
/// says (`OracleVerdict`). `make check-oracle N=… SEED=…` runs N of them.
final class CaddyOracleTests: XCTestCase {
    func testDetourAgreesWithCaddyOnGeneratedConfigurations() throws {
        let caddy = try RequiredTool.find("caddy")
        let upstream = try FakeUpstream(.byPath)
        defer { upstream.stop() }
        let pages = try TemporaryFolder()
        defer { pages.remove() }
        try OracleProbe.writePages(CaddyConfigGenerator.codes, into: pages.url.appendingPathComponent("errors"))
        var generator = CaddyConfigGenerator(random: SplitMix64(state: OracleTally.seed))
        var tally = OracleTally(server: "caddy")
        var written = Set<String>()
        for _ in 0..<OracleTally.count {
            let port = LoopbackPort.free()
            let generated = generator.configuration(port: port, upstream: upstream.port, pages: pages.path)
            for line in generated.text.split(separator: "\n") {
                if let word = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first { written.insert(String(word)) }
            }
            let state = try TemporaryFolder(files: ["Caddyfile": generated.text])
            defer { state.remove() }
            let server = try ServerProcess(
                executable: caddy, ["run", "--config", state.path + "/Caddyfile", "--adapter", "caddyfile"],
                environment: ["HOME": state.path, "XDG_DATA_HOME": state.path, "XDG_CONFIG_HOME": state.path],
                log: state.url.appendingPathComponent("caddy.log"))
            defer { server.stop() }
            let report = CaddyChecker.check(
                .init(
                    main: state.url.appendingPathComponent("Caddyfile"), mainDisplay: "Caddyfile", pages: pages.url.appendingPathComponent("errors"), maps: []),
                version: CaddyVersionSource(.debian))
            guard LoopbackPort.waitUntilOpen(port) else {
                let refused = report.diagnostics.contains { $0.severity == .error }
                tally.record(
                    configuration: generated.text,
                    disagreements: refused ? [] : ["caddy refused the configuration (\(server.log.suffix(400))); detour reported no error"])
                continue
            }
            let probes = OracleVerdict.probe(port: port, upstream: upstream, sites: generated.sites.map { ($0.host, $0.paths) })
            let sites = zip(generated.sites, probes).map { OracleVerdict.Site(host: $0.host, lines: $0.lines, probes: $1) }
            tally.record(
                configuration: generated.text,
                disagreements: OracleVerdict.disagreements(
                    sites: sites, diagnostics: report.diagnostics, file: "Caddyfile", codes: Set(CaddyConfigGenerator.codes)))
        }
        tally.report()
        tally.dump()
        XCTAssertEqual(tally.disagreements.count, 0, tally.disagreements.prefix(3).joined(separator: "\n\n"))
        let vocabulary = try String(contentsOf: CaddyConfigGenerator.vocabularyFile, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
        if OracleTally.count >= 50 {
            for directive in vocabulary { XCTAssertTrue(written.contains(String(directive)), "\(directive) is never generated") }
        }
    }
}
