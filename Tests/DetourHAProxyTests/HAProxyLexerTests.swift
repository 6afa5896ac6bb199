import DetourDiagnostics
import DetourTestSupport
import XCTest

@testable import DetourHAProxy

/// The lexer takes a run of plain bytes as one word at once; byte by byte, as HAProxy's own
/// parser goes, must give the same words, columns and refusals for any line.
final class HAProxyLexerTests: XCTestCase {
    private let lexer = HAProxyLexer(path: "haproxy.cfg", environment: ["PAGES": "/srv/errors", "EMPTY": ""])

    private func read(_ line: [UInt8], plainRuns: Bool) -> (words: [String], diagnostics: [String]) {
        var scratch = HAProxyLexer.Scratch()
        var diagnostics: [Diagnostic] = []
        let read = line.withUnsafeBufferPointer { lexer.line($0, number: 7, scratch: &scratch, diagnostics: &diagnostics, plainRuns: plainRuns) }
        return (read?.words.map { "\($0.column):\($0.text)" } ?? [], diagnostics.map { "\($0.location): \($0.message)" })
    }

    func testPlainRunsReadAsByteByByte() {
        let pieces = [
            "errorfile", "503", "/srv/errors/503.http", " ", " ", "\t", "\r", "#", "# comment", "\"", "'", "\\", "\\ ", "\\#", "\\x41", "\\x4", "\\t",
            "\\$", "${PAGES}", "${EMPTY-none}", "${MISSING-default}", "${", "}", "\"quoted words\"", "'single ${PAGES}'", "a\"b\"c", "é", "ü/ß",
            "{", "if", "status", "500:599",
        ]
        var random = SplitMix64(state: 31)
        var lines = ["", "   ", "#", "errorfile 503 \"${PAGES}/503.http\"", "a\\", "\"open", "'open", "x\"\" y", "\"\"plain"].map { Array($0.utf8) }
        for _ in 0..<5000 {
            var line: [UInt8] = []
            for _ in 0..<(random.next() % 9) { line += Array(pieces[Int(random.next() % UInt64(pieces.count))].utf8) }
            lines.append(line)
        }
        var (words, refused) = (0, 0)
        for line in lines {
            let fast = read(line, plainRuns: true)
            let slow = read(line, plainRuns: false)
            XCTAssertEqual(fast.words, slow.words, "\(String(decoding: line, as: UTF8.self))")
            XCTAssertEqual(fast.diagnostics, slow.diagnostics, "\(String(decoding: line, as: UTF8.self))")
            words += fast.words.count
            refused += fast.diagnostics.isEmpty ? 0 : 1
        }
        XCTAssertGreaterThan(words, 2000, "the lines hold words to compare")
        XCTAssertGreaterThan(refused, 500, "and quotes left open")
    }

    func testWordsAndColumns() {
        XCTAssertEqual(
            read(Array("  errorfile 503 \"${PAGES}\"/503.http # the page".utf8), plainRuns: true).words,
            ["3:errorfile", "13:503", "17:/srv/errors/503.http"])
        XCTAssertEqual(read(Array("a\\ b c'd e'f".utf8), plainRuns: true).words, ["1:a b", "6:cd ef"])
        XCTAssertEqual(read(Array("bind \"open".utf8), plainRuns: true).diagnostics.count, 1)
    }
}
