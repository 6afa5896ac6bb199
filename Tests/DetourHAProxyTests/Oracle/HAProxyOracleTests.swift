import DetourDiagnostics
import DetourHAProxy
import DetourProxyCore
import DetourTestSupport
import Foundation
import XCTest

/// The runtime oracle for `detour check haproxy`: generated configurations run on the real
/// HAProxy with a misbehaving upstream, every site probed, and what visitors got compared with
/// what detour says (`ProbingOracleRunner`). `make check-oracle N=… SEED=…` runs N of them.
final class HAProxyOracleTests: XCTestCase {
    private struct HAProxy: ProbingOracleServer {
        var generator = HAProxyConfigGenerator(random: SplitMix64(state: OracleTally.seed))
        let name = "haproxy"
        let mainFile = "haproxy.cfg"
        let codes = HAProxyConfigGenerator.codes
        let vocabulary = HAProxyConfigGenerator.vocabularyFile

        mutating func generate(port: Int, upstream: Int, pages: String, folder: String) -> (text: String, sites: [OracleSite]) {
            let ports = [port] + (0..<Int.random(in: 0...2, using: &generator.random)).map { _ in LoopbackPort.free() }
            return generator.configuration(ports: ports, upstream: upstream, pages: pages)
        }

        func preparePages(_ folder: URL) throws {
            try HAProxyConfigGenerator.writeRawPages(into: folder)
        }

        func start(_ main: URL, in folder: TemporaryFolder) throws -> ServerProcess {
            try ServerProcess("haproxy", ["-db", "-f", main.path], log: folder.url.appendingPathComponent("haproxy.log"))
        }

        func check(_ main: URL, pages: URL) -> [Diagnostic] {
            HAProxyChecker.check(.init(main: main, mainDisplay: mainFile, pages: pages, maps: [])).diagnostics
        }
    }

    func testDetourAgreesWithHAProxyOnGeneratedConfigurations() throws {
        var haproxy = HAProxy()
        try ProbingOracleRunner.run(&haproxy)
    }
}
