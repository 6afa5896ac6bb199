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

    /// The paths each file lists: one range for a site within the limits.
    var parts: [Range<Int>] {
        let perPath = languageFolders.count
        let budget = maximumBytesPerFile - Self.header.utf8.count - urlsetStart.utf8.count - Self.urlsetEnd.utf8.count
        // Most sites are far within both: a bound (every byte of every URL escaped to six) says so.
        let longest = paths.map(\.utf8.count).max() ?? 0
        let longestURL = 6 * (baseURL.utf8.count + (languages.map(\.utf8.count).max() ?? 0) + 1 + longest)
        let entryBound = perPath * (100 + longestURL + perPath * (100 + longestURL))
        if paths.count * perPath <= Self.maximumURLs, paths.count * entryBound <= budget { return [paths.indices] }
        var parts: [Range<Int>] = []
        var start = 0
        var (urls, bytes) = (0, 0)
        for index in paths.indices {
            let size = entry(paths[index]).utf8.count
            if index > start, urls + perPath > Self.maximumURLs || bytes + size > budget {
                parts.append(start..<index)
                (start, urls, bytes) = (index, 0, 0)
            }
            (urls, bytes) = (urls + perPath, bytes + size)
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
        var xml = Self.header + urlsetStart
        // Tens of megabytes for a large site: measured first and grown once, rather than held
        // twice as entries or copied as it doubles.
        xml.reserveCapacity(xml.utf8.count + range.reduce(0) { $0 + entry(paths[$1]).utf8.count } + Self.urlsetEnd.utf8.count)
        for index in range { xml += entry(paths[index]) }
        return xml + Self.urlsetEnd
    }

    private var urlsetStart: String {
        "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\""
            + (languageFolders.count > 1 ? " xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n" : ">\n")
    }

    /// One page's `<url>` in every language's folder, each with its alternates.
    private func entry(_ path: String) -> String {
        let folders = languageFolders
        var xml = ""
        for folder in folders {
            xml += "  <url><loc>\(HTMLText.escape(baseURL + folder + path))</loc>"
            if folders.count > 1 {
                for (language, other) in zip(languages, folders) {
                    xml += "<xhtml:link rel=\"alternate\" hreflang=\"\(language)\" href=\"\(HTMLText.escape(baseURL + other + path))\"/>"
                }
            }
            xml += "</url>\n"
        }
        return xml
    }
}
