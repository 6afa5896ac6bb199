import DetourSupport

/// `sitemap.xml` for the help site (error pages are `noindex` and stay out of it). With more
/// than one language, each page is listed in every language's folder with its alternates.
struct Sitemap {
    let baseURL: String
    let paths: [String]
    /// The site's languages, the default first (whose pages are at the root).
    var languages: [String] = []

    var xml: String {
        let languageFolders = languages.enumerated().map { $0.offset == 0 ? "" : $0.element + "/" }
        let alternates = languageFolders.count > 1
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\""
        xml += alternates ? " xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n" : ">\n"
        for path in paths {
            for folder in languageFolders.isEmpty ? [""] : languageFolders {
                xml += "  <url><loc>\(HTMLText.escape(baseURL + folder + path))</loc>"
                if alternates {
                    for (language, other) in zip(languages, languageFolders) {
                        xml += "<xhtml:link rel=\"alternate\" hreflang=\"\(language)\" href=\"\(HTMLText.escape(baseURL + other + path))\"/>"
                    }
                }
                xml += "</url>\n"
            }
        }
        return xml + "</urlset>\n"
    }
}
