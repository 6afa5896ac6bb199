import DetourTestSupport
import Foundation
import XCTest

/// A shipped article held to what a real server or browser did: the test asserts the article
/// says it, word for word, runs of white space counting as one as Markdown reads them.
struct ArticleQuotes {
    let url: URL

    /// `path` under content/, such as `articles/proxy/cors-on-error-responses.md`.
    init(_ path: String) { url = Repository.content.appendingPathComponent(path) }

    /// Asserts the article quotes each of `texts`.
    func assertQuoted(_ texts: String..., file: StaticString = #filePath, line: UInt = #line) throws {
        let words = { (text: String) in text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        let article = words(try String(contentsOf: url, encoding: .utf8))
        for text in texts {
            XCTAssertTrue(article.contains(words(text)), "\(url.lastPathComponent) quotes \(text)", file: file, line: line)
        }
    }
}
