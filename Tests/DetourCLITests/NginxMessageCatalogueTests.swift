import DetourContent
import DetourLogs
import DetourTestSupport
import Foundation
import XCTest

/// nginx's own catalogue of what it can log (LogCatalogue/nginx-1.22.tsv, read from its source
/// by scripts/server-messages/nginx.py) against the verdicts of LogCatalogue/nginx-verdicts.tsv:
/// every message has one, and `detour diagnose` sends each as nginx writes it to the article
/// named, or to none when none is.
final class NginxMessageCatalogueTests: XCTestCase {
    private struct Message {
        var source, level, text: String
    }

    private struct Verdict {
        var message, example, slug, reason: String
    }

    private let messages = TestDataTable.rows("LogCatalogue/nginx-1.22.tsv", fields: 3).map { Message(source: $0[0], level: $0[1], text: $0[2]) }
    private let verdicts = TestDataTable.rows("LogCatalogue/nginx-verdicts.tsv", fields: 4).map {
        Verdict(message: $0[0], example: $0[1], slug: $0[2], reason: $0[3])
    }

    func testEveryMessageHasAVerdictAndEveryVerdictAMessage() {
        XCTAssertGreaterThan(messages.count, 250, "the catalogue is read from nginx's source")
        let judged = Set(verdicts.map(\.message))
        for message in messages where message.level != "emerg" && !judged.contains(message.text) {
            XCTFail("\(message.source): no verdict in LogCatalogue/nginx-verdicts.tsv for \"\(message.text)\"")
        }
        let known = Set(messages.map(\.text))
        for verdict in verdicts where !known.contains(verdict.message) {
            XCTFail("LogCatalogue/nginx-verdicts.tsv: \"\(verdict.message)\" is no message of nginx-1.22.tsv")
        }
        for verdict in verdicts where verdict.slug == "-" && verdict.reason.isEmpty {
            XCTFail("LogCatalogue/nginx-verdicts.tsv: \"\(verdict.message)\" is left unexplained without a reason")
        }
    }

    func testDiagnoseSendsEachMessageWhereItsVerdictSays() throws {
        let (content, problems) = ContentLoader(root: Repository.content, displayRoot: "content").load()
        let articles = try XCTUnwrap(content, "\(problems)").articles.filter { !$0.logPatterns.isEmpty }
        let slugs = Set(articles.map(\.slug))
        let matcher = LogMatcher(articles.map { LogCause(slug: $0.slug, title: $0.title, url: "", statuses: [], patterns: $0.logPatterns.map(\.value)) })
        // A message nginx logs at emerg while starting and at another level at run time is
        // judged here as the run time writes it; the emerg rule below covers the other.
        let levels = Dictionary(messages.filter { $0.level != "emerg" }.map { ($0.text, $0.level) }, uniquingKeysWith: { first, _ in first })
        let explained = { (text: String, level: String) -> String? in
            matcher.explanation(of: Self.errorLogLine(text, level: level)).map { articles[$0.cause].slug }
        }
        for verdict in verdicts {
            let text = verdict.example == "-" ? Self.filledIn(verdict.message) : verdict.example
            XCTAssertTrue(
                Self.instantiates(text, verdict.message), "LogCatalogue/nginx-verdicts.tsv: \"\(text)\" is not what nginx writes for \"\(verdict.message)\"")
            XCTAssertTrue(verdict.slug == "-" || slugs.contains(verdict.slug), "LogCatalogue/nginx-verdicts.tsv: no article \(verdict.slug)")
            let level = levels[verdict.message] ?? "error"
            XCTAssertEqual(
                explained(text, level) ?? "-", verdict.slug, "\"\(text)\": the article detour diagnose sends it to, against its verdict (- for none)")
        }
        // nginx logs at emerg only what keeps it from starting or reloading: a refused configuration.
        for message in messages where message.level == "emerg" {
            XCTAssertEqual(explained(Self.filledIn(message.text), "emerg"), "configuration-refused", "\(message.source): \(message.text)")
        }
    }

    /// `text` as a line of nginx's error log: its time, level, pid and connection, and after
    /// it the request's context, as nginx 1.22 appends it.
    static func errorLogLine(_ text: String, level: String) -> String {
        let shown = ["connection": "error", "variable": "error"][level] ?? level
        return "2026/11/25 06:00:00 [\(shown)] 1234#1234: *7 \(text), client: 203.0.113.7, server: example.com, request: \"GET /orders/7 HTTP/1.1\", "
            + "upstream: \"http://10.0.0.9:8080/orders/7\", host: \"example.com\""
    }

    /// nginx's printf fields in a catalogue message.
    private static let field = try! NSRegularExpression(pattern: #"%(\*|0?\d+)?(u|x|X)?[A-Za-z]"#)

    /// The message with its C escapes read and each field filled in: a string as `x`, a
    /// number as 7.
    static func filledIn(_ message: String) -> String {
        let text = unescaped(message)
        var out = ""
        var last = text.startIndex
        for match in field.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            let range = Range(match.range, in: text)!
            out += text[last..<range.lowerBound]
            let kind = text[text.index(before: range.upperBound)]
            out += kind == "V" || kind == "s" ? "x" : "7"
            last = range.upperBound
        }
        return out + text[last...]
    }

    /// Whether `text` starts as nginx writes `message`, whatever its fields hold.
    static func instantiates(_ text: String, _ message: String) -> Bool {
        let literal = unescaped(message)
        var pattern = "^"
        var last = literal.startIndex
        for match in field.matches(in: literal, range: NSRange(literal.startIndex..., in: literal)) {
            let range = Range(match.range, in: literal)!
            pattern += NSRegularExpression.escapedPattern(for: String(literal[last..<range.lowerBound])) + ".*?"
            last = range.upperBound
        }
        pattern += NSRegularExpression.escapedPattern(for: String(literal[last...]))
        return text.range(of: pattern, options: .regularExpression) != nil
    }

    /// The C string's escapes: `\"` and `\\`.
    private static func unescaped(_ message: String) -> String {
        message.replacingOccurrences(of: #"\""#, with: "\"").replacingOccurrences(of: #"\\"#, with: #"\"#)
    }
}
