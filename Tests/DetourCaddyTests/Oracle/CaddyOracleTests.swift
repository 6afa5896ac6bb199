import DetourDiagnostics
import DetourProxyCore
import DetourTestSupport
import Foundation
import XCTest

@testable import DetourCaddy

/// The runtime oracle for `detour check caddy`: generated Caddyfiles run on the real Caddy with
/// a misbehaving upstream, every site probed, and what visitors got compared with what detour
/// says (`ProbingOracleRunner`). `make check-oracle N=… SEED=…` runs N of them.
final class CaddyOracleTests: XCTestCase {
    private struct Caddy: ProbingOracleServer {
        var generator = CaddyConfigGenerator(random: SplitMix64(state: OracleTally.seed))
        let name = "caddy"
        let mainFile = "Caddyfile"
        let codes = CaddyConfigGenerator.codes
        let vocabulary = CaddyConfigGenerator.vocabularyFile

        mutating func generate(port: Int, upstream: Int, pages: String, folder: String) -> (text: String, sites: [OracleSite]) {
            generator.configuration(port: port, upstream: upstream, pages: pages, folder: folder)
        }

        func start(_ main: URL, in folder: TemporaryFolder) throws -> ServerProcess {
            try ServerProcess(
                "caddy", ["run", "--config", main.path, "--adapter", "caddyfile"],
                environment: ["HOME": folder.path, "XDG_DATA_HOME": folder.path, "XDG_CONFIG_HOME": folder.path],
                log: folder.url.appendingPathComponent("caddy.log"))
        }

        func check(_ main: URL, pages: URL) -> [Diagnostic] {
            CaddyChecker.check(.init(main: main, mainDisplay: mainFile, pages: pages, maps: []), version: CaddyVersionSource(.debian)).diagnostics
        }
    }

    func testDetourAgreesWithCaddyOnGeneratedConfigurations() throws {
        var caddy = Caddy()
        try ProbingOracleRunner.run(&caddy)
    }
}
