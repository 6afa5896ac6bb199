import DetourContent
import DetourLogs
import DetourTestSupport
import Foundation
import XCTest

/// A server's catalogue of what it can log, read from its own source by a script of
/// scripts/server-messages/ (LogCatalogue/<server>-<version>.tsv), and the verdicts beside it
/// (LogCatalogue/<server>-verdicts.tsv): for each message, the article that explains it, with an
/// example as the server writes it, or `-` and why none does. The checks: every message has a
/// verdict, every verdict a message, and `detour diagnose` sends each example, written as a
/// line of the server's error log, to its article or to none.
struct ServerMessageCatalogue {
    struct Message {
        /// Source file and line, the key verdicts name it by (the text, or Apache's AH number),
        /// the level and the printf format.
        var source, key, level, text: String
        /// The releases whose source writes it, where the catalogue spans several.
        var releases: [String] = []
    }

    struct Verdict {
        var key, example, slug, reason: String
    }

    var verdictTable: String
    var messages: [Message]
    var verdicts: [Verdict]
    /// A printf field in the server's formats.
    var field: NSRegularExpression
    /// What a message looks like in a line: the text at its start (nginx) or after a prefix
    /// (Apache's `AH00957: `).
    var prefix: (Message) -> String
    /// `text` as a whole line of the server's error log, for a message at `level`.
    var logLine: (_ text: String, _ message: Message) -> String
    /// The text a verdict without an example stands for, given the message filled in
    /// (`filledIn`): by default that text.
    var defaultExample: ((Message, _ filledIn: String) -> String)? = nil

    /// The message with each field filled in, a string as `x` and a number as 7, after its
    /// prefix.
    func filledIn(_ message: Message) -> String {
        let text = Self.unescaped(message.text)
        var out = prefix(message)
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

    /// Whether `text` holds the message as the server writes it, whatever its fields hold.
    func instantiates(_ text: String, _ message: Message) -> Bool {
        let literal = Self.unescaped(message.text)
        var pattern = NSRegularExpression.escapedPattern(for: prefix(message))
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
    private static func unescaped(_ text: String) -> String {
        text.replacingOccurrences(of: #"\""#, with: "\"").replacingOccurrences(of: #"\\"#, with: #"\"#)
    }

    /// Every message below the emerg level has a verdict; every verdict names a message and,
    /// when no article explains it, why (not that it waits to be reproduced).
    func checkEveryMessageIsJudged(file: StaticString = #filePath, line: UInt = #line) {
        let judged = Set(verdicts.map(\.key))
        for message in messages where message.level != "emerg" && !judged.contains(message.key) {
            XCTFail("\(message.source): no verdict in \(verdictTable) for \(message.key)", file: file, line: line)
        }
        let known = Set(messages.map(\.key))
        for verdict in verdicts where !known.contains(verdict.key) {
            XCTFail("\(verdictTable): \(verdict.key) is no message of the catalogue", file: file, line: line)
        }
        for verdict in verdicts where verdict.slug == "-" && verdict.reason.isEmpty {
            XCTFail("\(verdictTable): \(verdict.key) is left unexplained without a reason", file: file, line: line)
        }
        // A verdict is final: the message reproduced with its article, or why none claims it.
        for verdict in verdicts where verdict.reason.contains("not yet reproduced") {
            XCTFail("\(verdictTable): \(verdict.key) waits for a reproduction, which is no verdict", file: file, line: line)
        }
    }

    /// Each verdict's example that an article explains, as a line of the server's log, for the
    /// messages `include` keeps (those of releases this machine does not run).
    func explainedLines(of include: (Message) -> Bool) -> [String] {
        let byKey = Dictionary(messages.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        return verdicts.compactMap { verdict in
            guard verdict.slug != "-", let message = byKey[verdict.key], include(message) else { return nil }
            return logLine(verdict.example != "-" ? verdict.example : defaultExample?(message, filledIn(message)) ?? filledIn(message), message)
        }
    }

    /// `detour diagnose`'s matcher sends each verdict's example where the verdict says, and
    /// every emerg message (the server did not start or reload) to `emergSlug`.
    func checkDiagnoseFollowsTheVerdicts(emergSlug: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let (slugs, article) = try Self.shippedArticles()
        let explained = { (text: String, message: Message) -> String in article(logLine(text, message)) }
        // A message logged at emerg while starting and at another level at run time is judged
        // as the run time writes it; the emerg rule below covers the other.
        let byKey = Dictionary(messages.filter { $0.level != "emerg" }.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        for verdict in verdicts {
            guard let message = byKey[verdict.key] else { continue }
            let text = verdict.example != "-" ? verdict.example : defaultExample?(message, filledIn(message)) ?? filledIn(message)
            XCTAssertTrue(instantiates(text, message), "\(verdictTable): \"\(text)\" is not what the server writes for \(verdict.key)", file: file, line: line)
            XCTAssertTrue(verdict.slug == "-" || slugs.contains(verdict.slug), "\(verdictTable): no article \(verdict.slug)", file: file, line: line)
            XCTAssertEqual(
                explained(text, message), verdict.slug, "\"\(text)\": the article detour diagnose sends it to, against its verdict (- for none)", file: file,
                line: line)
            // Routine lines are those no request failed with: the class holds no line an article explains.
            XCTAssertFalse(
                verdict.slug != "-" && LogRoutine.isRoutine(logLine(text, message)), "\"\(logLine(text, message))\": routine, yet \(verdict.slug) explains it",
                file: file, line: line)
        }
        for message in messages where message.level == "emerg" {
            XCTAssertEqual(explained(filledIn(message), message), emergSlug, "\(message.source): \(message.text)", file: file, line: line)
        }
    }

    /// The slugs of the shipped articles with log patterns, and the one `detour diagnose` sends
    /// a line to (`-`: none).
    static func shippedArticles() throws -> (slugs: Set<String>, explaining: (String) -> String) {
        let (content, problems) = ContentLoader(root: Repository.content, displayRoot: "content").load()
        let articles = try XCTUnwrap(content, "\(problems)").articles.filter { !$0.logPatterns.isEmpty }
        let matcher = LogMatcher(articles.map { LogCause(slug: $0.slug, title: $0.title, url: "", statuses: [], patterns: $0.logPatterns.map(\.value)) })
        return (Set(articles.map(\.slug)), { matcher.explanation(of: $0).map { articles[$0.cause].slug } ?? "-" })
    }

    /// The Swift file `script` (of scripts/server-messages/) derives from the catalogue and its
    /// verdicts is the one shipped at `shipped` (a path in the repository): the verdicts and
    /// what `detour diagnose` reads agree.
    static func checkDerivedFile(script: String, shipped: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let scratch = try TemporaryFolder()
        defer { scratch.remove() }
        let written = scratch.url.appendingPathComponent("derived.swift")
        let result = try ProcessRunner.run(
            try RequiredTool.find("python3"), [Repository.root.path + "/scripts/server-messages/" + script, "--out", written.path])
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        let expected = try String(contentsOf: Repository.root.appendingPathComponent(shipped), encoding: .utf8)
        XCTAssertEqual(try String(contentsOf: written, encoding: .utf8), expected, "run scripts/server-messages/\(script)", file: file, line: line)
    }
}
