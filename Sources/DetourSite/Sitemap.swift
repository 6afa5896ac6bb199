import DetourSupport

/// `sitemap.xml` for the help site (error pages are `noindex` and stay out of it).
struct Sitemap {
    let baseURL: String
    let paths: [String]

    var xml: String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
        for path in paths {
            xml += "  <url><loc>\(HTMLText.escape(baseURL + path))</loc></url>\n"
        }
        return xml + "</urlset>\n"
    }
}
