import DetourDiagnostics
import DetourProxyCore
import DetourTestSupport
import DetourVerify
import Foundation
import XCTest

@testable import DetourCaddy

/// The runtime oracle for `detour check caddy`: generated Caddyfiles given to `detour verify`'s
/// engine (the real Caddy in its sandbox, the upstream in every failure mode) and to `detour
/// check`, their findings compared rule by rule (`OracleRunner`). `make check-oracle N=… SEED=…`
/// runs N of them.
final class CaddyOracleTests: XCTestCase {
    private struct Caddy: OracleServer {
        var generator = CaddyConfigGenerator(random: SplitMix64(state: OracleTally.seed))
        let name = "caddy"
        let mainFile = "Caddyfile"
        let codes = CaddyConfigGenerator.codes
        let vocabulary = CaddyConfigGenerator.vocabularyFile
        let judge = VerifyServer.caddy

        mutating func generate(port: Int, upstream: Int, pages: String, folder: String) -> (text: String, files: [String: String]) {
            (generator.configuration(port: port, upstream: upstream, pages: pages, folder: folder), [:])
        }

        func check(_ main: URL, pages: URL) -> [Diagnostic] {
            CaddyChecker.check(.init(main: main, mainDisplay: mainFile, pages: pages, maps: []), version: CaddyVersionSource(.debian)).diagnostics
        }
    }

    func testDetourAgreesWithCaddyOnGeneratedConfigurations() async throws {
        var caddy = Caddy()
        try await OracleRunner.run(&caddy)
    }
}
