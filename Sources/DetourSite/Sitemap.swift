import DetourLayout
import DetourSupport

/// `sitemap.xml` for the help site (error pages are `noindex` and stay out of it). With more
/// than one language, each page is listed in every language's folder with its alternates.
///
/// The sitemaps protocol takes at most 50,000 URLs and 50 MB in one file, which a site of ten
/// thousand articles in five languages passes: a site that large gets `sitemap.xml` as an index
/// of `sitemaps/<n>.xml` files, each within both limits, a page's languages always in one file.
struct Sitemap {
    static let maximumURLs = 50_000
    static let maximumBytes = 50 * 1024 * 1024

    let baseURL: String
    let paths: [String]
    /// The site's languages, the default first (whose pages are at the root).
    var languages: [String] = []
    /// The most one file may hold: the protocol's limits.
    var maximumBytesPerFile = Self.maximumBytes

    private var languageFolders: [String] {
        languages.isEmpty ? [""] : languages.enumerated().map { $0.offset == 0 ? "" : $0.element + "/" }
    }
    private static let header = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    private static let urlsetEnd = "</urlset>\n"

    /// The paths each file lists: one range for a site within the limits. Counted, not
    /// written: a preview server's quick rebuilds ask again.
    var parts: [Range<Int>] {
        let perPath = languageFolders.count
        let budget = maximumBytesPerFile - Self.header.utf8.count - urlsetStart.utf8.count - Self.urlsetEnd.utf8.count
        let size = entrySize
        var parts: [Range<Int>] = []
        var start = 0
        var (urls, bytes) = (0, 0)
        for index in paths.indices {
            let bytesOfPath = size(paths[index])
            if index > start, urls + perPath > Self.maximumURLs || bytes + bytesOfPath > budget {
                parts.append(start..<index)
                (start, urls, bytes) = (index, 0, 0)
            }
            (urls, bytes) = (urls + perPath, bytes + bytesOfPath)
        }
        parts.append(start..<paths.count)
        return parts
    }

    /// `sitemap.xml`: every page, or for a large site the index of its parts.
    func xml(parts: [Range<Int>]) -> String {
        guard parts.count > 1 else { return xml(of: paths.indices) }
        var xml = Self.header + "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
        for number in parts.indices {
            xml += "  <sitemap><loc>\(HTMLText.escape(baseURL + SiteLayout.sitemapPart(number + 1)))</loc></sitemap>\n"
        }
        return xml + "</sitemapindex>\n"
    }

    /// A `<urlset>` of the pages at `range`.
    func xml(of range: Range<Int>) -> String {
        var xml = ""
        let size = entrySize
        xml.reserveCapacity(Self.header.utf8.count + urlsetStart.utf8.count + range.reduce(0) { $0 + size(paths[$1]) } + Self.urlsetEnd.utf8.count)
        write(range) { xml += $0 }
        return xml
    }

    /// The same, handed to `write` in pieces of about `pieceSize` bytes: a large site's file is
    /// tens of megabytes, which a build writes as it makes them rather than holding them.
    func write(_ range: Range<Int>, to write: (String) throws -> Void) rethrows {
        var piece = Self.header + urlsetStart
        for index in range {
            piece += entry(paths[index])
            if piece.utf8.count >= Self.pieceSize {
                try write(piece)
                piece = ""
            }
        }
        try write(piece + Self.urlsetEnd)
    }

    static let pieceSize = 64 * 1024

    private var urlsetStart: String {
        "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\""
            + (languageFolders.count > 1 ? " xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n" : ">\n")
    }

    private static let urlStart = "  <url><loc>"
    private static let locationEnd = "</loc>"
    private static let urlEnd = "</url>\n"
    private static let alternateStart = "<xhtml:link rel=\"alternate\" hreflang=\""
    private static let alternateAddress = "\" href=\""
    private static let alternateEnd = "\"/>"

    /// One page's `<url>` in every language's folder, each with its alternates.
    func entry(_ path: String) -> String {
        let folders = languageFolders
        var xml = ""
        for folder in folders {
            xml += Self.urlStart
            HTMLText.append(baseURL + folder + path, to: &xml)
            xml += Self.locationEnd
            if folders.count > 1 {
                for (language, other) in zip(languages, folders) {
                    xml += Self.alternateStart + language + Self.alternateAddress
                    HTMLText.append(baseURL + other + path, to: &xml)
                    xml += Self.alternateEnd
                }
            }
            xml += Self.urlEnd
        }
        return xml
    }

    /// `entry(path).utf8.count`, reckoned: the same bytes for every page but its path's, which
    /// appears once per address (each language's, and each of its alternates).
    var entrySize: (String) -> Int {
        let folders = languageFolders
        let base = HTMLText.escapedCount(baseURL)
        var fixed = 0
        var addresses = folders.count
        for folder in folders {
            fixed += Self.urlStart.utf8.count + base + HTMLText.escapedCount(folder) + Self.locationEnd.utf8.count + Self.urlEnd.utf8.count
            guard folders.count > 1 else { continue }
            addresses += folders.count
            for (language, other) in zip(languages, folders) {
                fixed += Self.alternateStart.utf8.count + language.utf8.count + Self.alternateAddress.utf8.count + base + HTMLText.escapedCount(other)
                fixed += Self.alternateEnd.utf8.count
            }
        }
        return { [fixed, addresses] path in fixed + addresses * HTMLText.escapedCount(path) }
    }
}
