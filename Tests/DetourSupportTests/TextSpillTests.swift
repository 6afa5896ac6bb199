import DetourSupport
import Foundation
import XCTest

final class TextSpillTests: XCTestCase {
    /// Writes from every core land apart and read back as written; the file has no name.
    func testWritesFromManyThreadsReadBackAsWritten() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("detour-spill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let spill = try XCTUnwrap(TextSpill(folder: folder.path))
        let texts = (0..<2_000).map { number in Array("text \(number) é \(String(repeating: "x", count: number % 97))".utf8) }
        let references = texts.concurrentMap { spill.write($0) }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [], "the spill leaves no file behind")
        for (text, reference) in zip(texts, references) {
            XCTAssertEqual(spill.read(try XCTUnwrap(reference)), text)
        }
        XCTAssertEqual(spill.read(try XCTUnwrap(spill.write([]))), [])
    }

    func testAFolderThatCannotHoldOneMakesNoSpill() {
        XCTAssertNil(TextSpill(folder: "/nonexistent-\(UUID().uuidString)"))
    }
}
