import DetourDiagnostics
import DetourNginx
import DetourProxyCore
import DetourTestSupport
import DetourVerify
import Foundation
import XCTest

/// The runtime oracle for `detour check nginx`: generated configurations given to `detour
/// verify`'s engine (the real nginx in its sandbox, the upstream in every failure mode) and to
/// `detour check`, their findings compared rule by rule (`OracleRunner`). `make check-oracle N=…
/// SEED=…` runs N of them.
final class NginxOracleTests: XCTestCase {
    private struct Nginx: OracleServer {
        var generator = NginxConfigGenerator(random: SplitMix64(state: OracleTally.seed))
        let name = "nginx"
        let mainFile = "nginx.conf"
        let codes = NginxConfigGenerator.codes
        let vocabulary = NginxConfigGenerator.vocabularyFile
        let judge = VerifyServer.nginx

        mutating func generate(port: Int, upstream: Int, pages: String, folder: String) -> (text: String, files: [String: String]) {
            (generator.configuration(port: port, upstream: upstream, pages: pages, folder: folder), ["htpasswd": "staff:{PLAIN}secret\n"])
        }

        func check(_ main: URL, pages: URL) -> [Diagnostic] {
            NginxChecker.check(.init(main: main, mainDisplay: mainFile, pages: pages, maps: [])).diagnostics
        }
    }

    func testDetourAgreesWithNginxOnGeneratedConfigurations() async throws {
        var nginx = Nginx()
        try await OracleRunner.run(&nginx)
    }
}
