import DetourTestSupport
import Foundation
import XCTest

@testable import DetourContent

/// Real Markdown from many projects (READMEs, changelogs, docs pages shipped in PyPI source
/// distributions; `RealDocuments/manifest.tsv`, fetched by `scripts/markdown-corpus.py`) rendered
/// by detour and by cmark-gfm, with raw HTML off as sites start and on as some choose. Every
/// difference is written to `.build/markdown-corpus/differences.txt`.
final class RealDocumentDifferentialTests: XCTestCase {
    func testRealDocumentsRenderAsCmarkGFMDoes() throws {
        let folder = Repository.root.appendingPathComponent(".build/markdown-corpus/docs")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".md") }.sorted()
        guard !names.isEmpty else {
            let message = "no documents in \(folder.path): run scripts/markdown-corpus.py (make test-deps does)"
            if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail(message + " (required under CI=true)") }
            throw XCTSkip(message)
        }
        let documents = try names.map { name in
            (name: name, markdown: String(decoding: try Data(contentsOf: folder.appendingPathComponent(name)), as: UTF8.self))
        }
        let oracle = try CmarkGFMOracle()
        var report = ""
        var counts: [String] = []
        for options in [MarkdownOptions(), MarkdownOptions(rawHTML: true)] {
            let found = try oracle.disagreements(documents, options: options)
            counts.append("raw_html \(options.rawHTML): \(found.count) of \(documents.count) differ")
            report += found.map { "=== raw_html \(options.rawHTML) " + $0 }.joined(separator: "\n\n")
        }
        try report.write(to: folder.deletingLastPathComponent().appendingPathComponent("differences.txt"), atomically: true, encoding: .utf8)
        print("markdown differential: " + counts.joined(separator: "; "))
        XCTAssertTrue(report.isEmpty, counts.joined(separator: "; ") + " (in full: .build/markdown-corpus/differences.txt)")
    }
}
