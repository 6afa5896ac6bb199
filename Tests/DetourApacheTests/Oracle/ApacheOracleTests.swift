import DetourApache
import DetourDiagnostics
import DetourProxyCore
import DetourTestSupport
import DetourVerify
import Foundation
import XCTest

/// The runtime oracle for `detour check apache`: generated configurations given to `detour
/// verify`'s engine (the real Apache in its sandbox, the upstream in every failure mode) and to
/// `detour check`, their findings compared rule by rule (`OracleRunner`). `make check-oracle N=…
/// SEED=…` runs N of them.
final class ApacheOracleTests: XCTestCase {
    private struct Apache: OracleServer {
        var generator = ApacheConfigGenerator(random: SplitMix64(state: OracleTally.seed))
        let name = "apache"
        let mainFile = "apache.conf"
        let codes = ApacheConfigGenerator.codes
        let vocabulary = ApacheConfigGenerator.vocabularyFile
        let judge = VerifyServer.apache

        mutating func generate(port: Int, upstream: Int, pages: String, folder: String) -> (text: String, files: [String: String]) {
            (generator.configuration(port: port, upstream: upstream, pages: pages, folder: folder), ["htpasswd": "staff:{SHA}W6ph5Mm5Pz8GgiULbPgzG37mj9g=\n"])
        }

        func check(_ main: URL, pages: URL) -> [Diagnostic] {
            ApacheChecker.check(.init(main: main, mainDisplay: mainFile, pages: pages, maps: [])).diagnostics
        }
    }

    func testDetourAgreesWithApacheOnGeneratedConfigurations() async throws {
        var apache = Apache()
        try await OracleRunner.run(&apache)
    }
}
