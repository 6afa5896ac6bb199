import FoundationXML
import XCTest

@testable import DetourSite

/// The sitemaps protocol's limits (50,000 URLs, 50 MB a file), which a site of ten thousand
/// articles in five languages passes.
final class SitemapTests: XCTestCase {
    private let languages = ["en", "de", "fr", "es", "ja"]

    /// The split is reckoned without writing the entries: the reckoning must be their size.
    func testEntrySizeIsTheWrittenEntrysSize() {
        for languages in [[], ["en"], languages, ["en", "pt-BR"]] {
            for base in ["https://help.example.com/", "https://x.test/a&b'<c>\"/", "https://ü.test/"] {
                let sitemap = Sitemap(baseURL: base, paths: [], languages: languages)
                for path in ["", "articles/topic-1/", "articles/a&b/", "articles/\"q\"/", "tags/über-<x>/", "articles/it's/"] {
                    XCTAssertEqual(sitemap.entrySize(path), sitemap.entry(path).utf8.count, "\(languages) \(base) \(path)")
                }
            }
        }
    }

    func testASiteWithinTheLimitsIsOneFile() throws {
        let sitemap = Sitemap(baseURL: "https://help.example.com/", paths: [""] + (0..<100).map { "articles/topic-\($0)/" }, languages: languages)
        XCTAssertEqual(sitemap.parts, [0..<101])
        let xml = sitemap.xml(parts: sitemap.parts)
        XCTAssertEqual(try urls(in: xml).count, 505)
        XCTAssertTrue(xml.contains("<urlset"), xml)
    }

    func testALargeSiteIsAnIndexOfFilesEachWithinTheLimits() throws {
        let paths = [""] + (0..<12_000).map { "articles/topic-\($0)/" }
        let sitemap = Sitemap(baseURL: "https://help.example.com/", paths: paths, languages: languages)
        let parts = sitemap.parts
        XCTAssertEqual(parts.count, 2)
        let index = sitemap.xml(parts: parts)
        XCTAssertTrue(index.contains("<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"), index)
        XCTAssertEqual(try urls(in: index), ["https://help.example.com/sitemaps/1.xml", "https://help.example.com/sitemaps/2.xml"])
        var listed: [String] = []
        for part in parts {
            let xml = sitemap.xml(of: part)
            XCTAssertLessThanOrEqual(xml.utf8.count, Sitemap.maximumBytes)
            XCTAssertTrue(xml.hasSuffix("</urlset>\n"))
            // Foundation's parser stops at ten megabytes: the same entries are parsed whole in a small site.
            let urls = xml.components(separatedBy: "<url><loc>").dropFirst().map { String($0.prefix { $0 != "<" }) }
            XCTAssertLessThanOrEqual(urls.count, Sitemap.maximumURLs)
            listed += urls
        }
        // Every page in every language, once, its languages in the same file.
        XCTAssertEqual(listed.count, paths.count * languages.count)
        XCTAssertEqual(Set(listed).count, listed.count)
        XCTAssertTrue(listed.contains("https://help.example.com/ja/articles/topic-11999/"))
        XCTAssertEqual(parts[0].upperBound * languages.count, 50_000)
    }

    func testLongAddressesSplitByBytesBeforeTheURLCount() throws {
        let long = String(repeating: "x", count: 300)
        let paths = (0..<900).map { "articles/\(long)-\($0)/" }
        var sitemap = Sitemap(baseURL: "https://help.example.com/", paths: paths, languages: languages)
        sitemap.maximumBytesPerFile = 1024 * 1024
        let parts = sitemap.parts
        XCTAssertEqual(parts.count, 10)
        for part in parts {
            let bytes = sitemap.xml(of: part).utf8.count
            XCTAssertLessThanOrEqual(bytes, sitemap.maximumBytesPerFile)
            // Full: one more page (under 12,000 bytes in five languages) would not have fitted.
            if part.upperBound < paths.count { XCTAssertGreaterThan(bytes + 12_000, sitemap.maximumBytesPerFile) }
        }
        XCTAssertEqual(parts.map(\.count).reduce(0, +), paths.count)
    }

    /// A build writes a large sitemap as it makes it: pieces of about `pieceSize`, never the
    /// whole file at once.
    func testALargeSitemapIsWrittenInPieces() {
        let sitemap = Sitemap(baseURL: "https://help.example.com/", paths: [""] + (0..<5_000).map { "articles/topic-\($0)/" }, languages: languages)
        var pieces: [String] = []
        sitemap.write(sitemap.paths.indices) { pieces.append($0) }
        XCTAssertGreaterThan(pieces.count, 10)
        let largestEntry = sitemap.paths.map(sitemap.entrySize).max()!
        XCTAssertTrue(pieces.allSatisfy { $0.utf8.count < Sitemap.pieceSize + largestEntry + 100 }, "\(pieces.map(\.utf8.count).max()!)")
        XCTAssertEqual(pieces.joined(), sitemap.xml(parts: sitemap.parts))
    }

    /// What decides whether a file written in pieces is the previous one: every byte, in order,
    /// and nothing after; a symbolic link never.
    func testAFileComparedPieceByPiece() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("detour-comparison-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("sitemap.xml")
        try Data("<urlset>one two</urlset>".utf8).write(to: file)
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("link.xml"), withDestinationURL: file)
        func equals(_ pieces: [String], path: String = file.path) -> Bool {
            var comparison = FileComparison(path: path)
            for piece in pieces {
                var piece = piece
                piece.withUTF8 { comparison.compare($0) }
            }
            return comparison.endsEqual()
        }
        XCTAssertTrue(equals(["<urlset>", "one two", "", "</urlset>"]))
        XCTAssertFalse(equals(["<urlset>", "one two"]), "a file with more after the pieces")
        XCTAssertFalse(equals(["<urlset>", "one two</urlset>", "\n"]), "pieces beyond the file")
        XCTAssertFalse(equals(["<urlset>", "one tw0</urlset>"]))
        XCTAssertFalse(equals(["<urlset>one two</urlset>"], path: folder.appendingPathComponent("link.xml").path))
        XCTAssertFalse(equals(["x"], path: folder.appendingPathComponent("missing.xml").path))
    }

    /// Every `<loc>` of a well-formed document.
    private func urls(in xml: String) throws -> [String] {
        let reader = LocationReader()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = reader
        XCTAssertTrue(parser.parse(), "not well-formed: \(parser.parserError.map(String.init(describing:)) ?? "")")
        return reader.locations
    }
}

private final class LocationReader: NSObject, XMLParserDelegate {
    var locations: [String] = []
    private var text: String?

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String]) {
        if name == "loc" { text = "" }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text? += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "loc", let text { locations.append(text) }
        if name == "loc" { text = nil }
    }
}
