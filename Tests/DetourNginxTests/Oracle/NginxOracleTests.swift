import DetourDiagnostics
import DetourNginx
import DetourProxyCore
import DetourTestSupport
import Foundation
import XCTest

/// The runtime oracle for `detour check nginx`: generated configurations run on the real nginx
/// with a misbehaving upstream, every site probed, and what visitors got compared with what
/// detour says (`OracleRunner`). `make check-oracle N=… SEED=…` runs N of them.
final class NginxOracleTests: XCTestCase {
    private struct Nginx: OracleServer {
        var generator = NginxConfigGenerator(random: SplitMix64(state: OracleTally.seed))
        let name = "nginx"
        let mainFile = "nginx.conf"
        let codes = NginxConfigGenerator.codes
        let vocabulary = NginxConfigGenerator.vocabularyFile

        mutating func generate(port: Int, upstream: Int, pages: String, folder: String) -> (text: String, sites: [OracleSite]) {
            generator.configuration(port: port, upstream: upstream, pages: pages, folder: folder)
        }

        func start(_ main: URL, in folder: TemporaryFolder) throws -> ServerProcess {
            try folder.write(["htpasswd": "staff:{PLAIN}secret\n"])
            return try ServerProcess(
                "nginx", ["-p", folder.path + "/", "-c", main.path, "-e", folder.path + "/error.log", "-g", "daemon off; pid \(folder.path)/nginx.pid;"],
                log: folder.url.appendingPathComponent("nginx.log"))
        }

        func check(_ main: URL, pages: URL) -> [Diagnostic] {
            NginxChecker.check(.init(main: main, mainDisplay: mainFile, pages: pages, maps: [])).diagnostics
        }
    }

    func testDetourAgreesWithNginxOnGeneratedConfigurations() throws {
        var nginx = Nginx()
        try OracleRunner.run(&nginx)
    }
}
