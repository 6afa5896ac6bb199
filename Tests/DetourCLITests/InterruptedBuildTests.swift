import DetourTestSupport
import Foundation
import XCTest

/// A build killed with SIGKILL half-way must leave the previous output byte-for-byte intact
/// (nginx may be serving it), and the next build must clean up after it.
final class InterruptedBuildTests: XCTestCase {
    func testSIGKILLDuringRenderingLeavesPreviousOutputIntact() throws {
        let folder = try SampleSite.synthetic(articles: 600)
        defer { folder.remove() }
        XCTAssertEqual(try ProcessRunner.detour(["build", "-q"], in: folder.url).status, 0)
        let before = folder.snapshot("public")
        XCTAssertGreaterThan(before.count, 600)

        // Change what the next build would write, then kill it once it is writing pages.
        try folder.write(["content/codes/502.yml": try folder.read("content/codes/502.yml").replacingOccurrences(of: "Bad Gateway", with: "Changed Gateway")])
        var killedMidway = false
        for _ in 0..<3 where !killedMidway {
            let process = Process()
            process.executableURL = Repository.detourExecutable
            process.arguments = ["build", "-q"]
            process.currentDirectoryURL = folder.url
            try process.run()
            let deadline = Date().addingTimeInterval(60)
            while process.isRunning, Date() < deadline {
                if let staging = try stagingFolder(in: folder), (try? FileManager.default.contentsOfDirectory(atPath: staging.path).count) ?? 0 > 0 {
                    kill(process.processIdentifier, SIGKILL)
                    break
                }
                usleep(2_000)
            }
            process.waitUntilExit()
            killedMidway = process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
        }
        XCTAssertTrue(killedMidway, "the build finished before it could be killed; the test proved nothing")
        XCTAssertNotNil(try stagingFolder(in: folder), "the killed build's staging folder should be left behind")
        XCTAssertEqual(folder.snapshot("public"), before, "public/ changed although the build was killed")

        let next = try ProcessRunner.detour(["build", "-q"], in: folder.url)
        XCTAssertEqual(next.status, 0, next.stderr)
        XCTAssertNil(try stagingFolder(in: folder), "the next build must remove the dead build's staging folder")
        XCTAssertTrue(try folder.read("public/errors/502.html").contains("Changed Gateway"))
    }

    private func stagingFolder(in folder: TemporaryFolder) throws -> URL? {
        try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .first { $0.hasPrefix(".public.detour-build-") }
            .map { folder.url.appendingPathComponent($0) }
    }
}
