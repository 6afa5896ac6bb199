import DetourApache
import DetourDiagnostics
import DetourProxyCore
import DetourTestSupport
import Foundation
import XCTest

/// The runtime oracle for `detour check apache`: generated configurations run on the real
/// Apache with a misbehaving upstream, every virtual host probed, and what visitors got
/// compared with what detour says (`ProbingOracleRunner`). `make check-oracle N=… SEED=…` runs N of them.
final class ApacheOracleTests: XCTestCase {
    private struct Apache: ProbingOracleServer {
        var generator = ApacheConfigGenerator(random: SplitMix64(state: OracleTally.seed))
        let name = "apache"
        let mainFile = "apache.conf"
        let codes = ApacheConfigGenerator.codes
        let vocabulary = ApacheConfigGenerator.vocabularyFile

        mutating func generate(port: Int, upstream: Int, pages: String, folder: String) -> (text: String, sites: [OracleSite]) {
            generator.configuration(port: port, upstream: upstream, pages: pages, folder: folder)
        }

        func start(_ main: URL, in folder: TemporaryFolder) throws -> ServerProcess {
            try folder.write(["htpasswd": "staff:{SHA}W6ph5Mm5Pz8GgiULbPgzG37mj9g=\n"])
            return try ServerProcess("apache2", ["-f", main.path, "-DFOREGROUND"], log: folder.url.appendingPathComponent("apache.log"))
        }

        func check(_ main: URL, pages: URL) -> [Diagnostic] {
            ApacheChecker.check(.init(main: main, mainDisplay: mainFile, pages: pages, maps: [])).diagnostics
        }
    }

    func testDetourAgreesWithApacheOnGeneratedConfigurations() throws {
        var apache = Apache()
        try ProbingOracleRunner.run(&apache)
    }
}
