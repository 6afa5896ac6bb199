import DetourDiagnostics
import DetourHAProxy
import DetourProxyCore
import DetourTestSupport
import DetourVerify
import Foundation
import XCTest

/// The runtime oracle for `detour check haproxy`: generated configurations given to `detour
/// verify`'s engine (the real HAProxy in its sandbox, the upstream in every failure mode) and to
/// `detour check`, their findings compared rule by rule (`OracleRunner`). `make check-oracle N=…
/// SEED=…` runs N of them.
final class HAProxyOracleTests: XCTestCase {
    private struct HAProxy: OracleServer {
        var generator = HAProxyConfigGenerator(random: SplitMix64(state: OracleTally.seed))
        let name = "haproxy"
        let mainFile = "haproxy.cfg"
        let codes = HAProxyConfigGenerator.codes
        let vocabulary = HAProxyConfigGenerator.vocabularyFile
        let judge = VerifyServer.haproxy

        mutating func generate(port: Int, upstream: Int, pages: String, folder: String) -> (text: String, files: [String: String]) {
            let ports = [port] + (0..<Int.random(in: 0...2, using: &generator.random)).map { _ in LoopbackPort.free() }
            return (generator.configuration(ports: ports, upstream: upstream, pages: pages), [:])
        }

        func preparePages(_ folder: URL) throws {
            try HAProxyConfigGenerator.writeRawPages(into: folder)
        }

        func check(_ main: URL, pages: URL) -> [Diagnostic] {
            HAProxyChecker.check(.init(main: main, mainDisplay: mainFile, pages: pages, maps: [])).diagnostics
        }
    }

    func testDetourAgreesWithHAProxyOnGeneratedConfigurations() async throws {
        var haproxy = HAProxy()
        try await OracleRunner.run(&haproxy)
    }
}
