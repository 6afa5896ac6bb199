import XCTest

@testable import DetourHAProxy

/// The keywords a line is dispatched on are HAProxy's own: each section HAProxy 2.6 knows opens a
/// section here, each other keyword is one some section of 2.6 takes (both from the table
/// derived from the haproxy binary), and a line's first word finds its keyword and no other.
final class HAProxyKeywordDispatchTests: XCTestCase {
    /// The table's lines: `section KIND FORM` for each section, `KIND KEYWORD [REFUSAL]` for
    /// each keyword a section takes.
    private let table = haproxyKeywordData.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }

    func testEverySectionHAProxyKnowsOpensOne() {
        let sections = table.filter { $0.first == "section" }.map { $0[1] }
        XCTAssertEqual(sections.count, 15, "the table lists HAProxy 2.6's sections")
        for section in sections {
            XCTAssertEqual(HAProxyKeyword.of(section)?.opensSection, true, "'\(section)' opens a section")
        }
        // `traces` came with HAProxy 3.1: known, so a newer configuration's section is one.
        XCTAssertEqual(HAProxyKeyword.traces.opensSection, true)
    }

    func testEveryOtherKeywordIsOneASectionTakes() {
        let taken = Set(table.filter { $0.count >= 2 && $0[0] != "section" && $0[0] != "options" }.map { $0[1] })
        for keyword in HAProxyKeyword.allCases where !keyword.opensSection {
            XCTAssertTrue(taken.contains(keyword.rawValue), "'\(keyword.rawValue)' is a keyword of HAProxy 2.6")
        }
    }

    func testAFirstWordFindsItsKeywordAndNoOther() {
        for keyword in HAProxyKeyword.allCases {
            XCTAssertEqual(HAProxyKeyword.of(keyword.rawValue), keyword)
            // Keywords are case-sensitive, whole words: near misses are none.
            XCTAssertNil(HAProxyKeyword.of(keyword.rawValue.uppercased()), keyword.rawValue)
            XCTAssertNotEqual(HAProxyKeyword.of(keyword.rawValue + "s"), keyword)
            XCTAssertNotEqual(HAProxyKeyword.of(String(keyword.rawValue.dropLast())), keyword)
        }
        XCTAssertNil(HAProxyKeyword.of(""))
        XCTAssertNil(HAProxyKeyword.of("a-keyword-longer-than-any-haproxy-has"))
    }
}
