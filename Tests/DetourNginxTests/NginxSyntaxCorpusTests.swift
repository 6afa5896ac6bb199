import DetourDiagnostics
import DetourTestSupport
import Foundation
import XCTest

@testable import DetourNginx

/// Every file in `Fixtures/nginx-syntax` is judged by the real `nginx -t` and by detour's
/// parser: both accept it, or both reject it on the same line with nginx's own words first.
final class NginxSyntaxCorpusTests: XCTestCase {
    private static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/nginx-syntax")

    func testParserAgreesWithNginx() throws {
        let nginx = try RequiredTool.find("nginx")
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).filter { $0.hasSuffix(".conf") }.sorted()
        XCTAssertGreaterThanOrEqual(files.count, 16)
        for name in files {
            let file = Self.corpus.appendingPathComponent(name)
            let scratch = try TemporaryFolder()
            defer { scratch.remove() }
            let verdict = try ProcessRunner.run(nginx, ["-t", "-p", scratch.path + "/", "-c", file.path, "-e", scratch.path + "/error.log"])
            let nginxAccepts = verdict.status == 0
            let ours = NginxConfigLoader(main: file, displayPath: name).load().diagnostics.sortedForOutput()

            XCTAssertEqual(name.hasPrefix("accepts-"), nginxAccepts, "\(name): the fixture's name disagrees with nginx: \(verdict.stderr)")
            if nginxAccepts {
                XCTAssertEqual(ours, [], "\(name): nginx accepts it, detour reports \(ours.map(\.message))")
                continue
            }
            guard let emerg = verdict.stderr.split(separator: "\n").first(where: { $0.contains("[emerg]") }),
                let messageStart = emerg.range(of: "[emerg] "), let inRange = emerg.range(of: " in ", options: .backwards),
                let line = Int(emerg[inRange.upperBound...].split(separator: ":").last ?? "")
            else {
                XCTFail("\(name): cannot read nginx's verdict: \(verdict.stderr)")
                continue
            }
            let message = String(emerg[messageStart.upperBound..<inRange.lowerBound])
            let first = try XCTUnwrap(ours.first, "\(name): nginx rejects it (\(message)), detour reports nothing")
            XCTAssertEqual(first.location.line, line, "\(name): nginx says line \(line): \(message); detour: \(first.location.description) \(first.message)")
            XCTAssertTrue(first.message.hasPrefix(message), "\(name): nginx says '\(message)', detour '\(first.message)'")
        }
    }
}
