import DetourDiagnostics
import DetourProxyCore
import DetourTestSupport
import DetourVarnish
import DetourVerify
import Foundation
import XCTest

/// The runtime oracle for `detour check varnish`: generated VCLs given to `detour verify`'s
/// engine (the real varnishd in its sandbox, the backend in every failure mode, each path
/// `vcl_recv` routes probed) and to `detour check`, their findings compared rule by rule
/// (`OracleRunner`). `make check-oracle N=… SEED=…` runs N of them.
final class VarnishOracleTests: XCTestCase {
    private struct Varnish: OracleServer {
        var generator = VarnishConfigGenerator(random: SplitMix64(state: OracleTally.seed))
        let name = "varnish"
        let mainFile = "default.vcl"
        let codes = VarnishConfigGenerator.codes
        let vocabulary = VarnishConfigGenerator.vocabularyFile
        let judge = VerifyServer.varnish

        mutating func generate(port: Int, upstream: Int, pages: String, folder: String) -> (text: String, files: [String: String]) {
            (generator.configuration(upstream: upstream, pages: pages), [:])
        }

        /// As root varnishd reads the pages as its own unprivileged user.
        func preparePages(_ folder: URL) throws {
            for path in [folder.deletingLastPathComponent().path, folder.path] {
                try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
            }
        }

        func check(_ main: URL, pages: URL) -> [Diagnostic] {
            VarnishChecker.check(.init(main: main, mainDisplay: mainFile, pages: pages, maps: [])).diagnostics
        }
    }

    func testDetourAgreesWithVarnishOnGeneratedConfigurations() async throws {
        var varnish = Varnish()
        try await OracleRunner.run(&varnish)
    }
}
