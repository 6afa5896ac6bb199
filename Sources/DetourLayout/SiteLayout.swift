/// Where every page of a build lives, the one place that spells the URL layout: pages, links,
/// the sitemap and the server snippets all ask here.
///
/// The help site is one folder per page (`codes/502/index.html`), two levels below the root;
/// error pages are files in `errors/`, one folder per language, with the default language's
/// pages also directly in `errors/` for servers and tools that know no language.
public enum SiteLayout {
    /// The way back to the site root from a page two folders deep.
    public static let nestedRoot = "../../"
    /// The ways back to the site root a help page can need: from the home page, the search
    /// page, and a nested page.
    public static let roots = ["", root(of: search), nestedRoot]

    /// The way back to the site root from a folder-style page (`search/` → `../`).
    public static func root(of page: String) -> String { String(repeating: "../", count: page.split(separator: "/").count) }
    public static let errorsFolder = "errors"
    /// Where `detour build` writes unless told otherwise, and so where `detour check` looks
    /// for the pages (`public/errors`) when none are named.
    public static let defaultOutput = "public"
    public static let defaultPagesFolder = defaultOutput + "/" + errorsFolder

    /// The home page, and the files at the site root.
    public static let home = ""
    public static let styles = "style.css"
    public static let sitemap = "sitemap.xml"
    /// One file of a sitemap too large for one (`sitemap.xml` is then their index), from 1.
    public static func sitemapPart(_ number: Int) -> String { "sitemaps/\(number).xml" }
    public static let robots = "robots.txt"
    /// The help site's own "page not found", for a static host to serve at any depth.
    public static let notFound = "404.html"

    /// The folder a language's help pages live in, as Hugo lays out a multilingual site: the
    /// default language at the root, every other one in `<language>/` (`de/codes/502/`).
    public static func languageFolder(_ language: String, defaultLanguage: String) -> String {
        language == defaultLanguage ? "" : language + "/"
    }

    public static func code(_ status: Int) -> String { "codes/\(status)/" }
    public static func article(_ slug: String) -> String { "articles/\(slug)/" }
    public static func tag(_ name: String) -> String { "tags/\(Slug.make(name))/" }
    /// The search page, which takes `?q=` (and `&lang=` for another language's index).
    public static let search = "search/"
    /// The rule pages: `rules/` lists them, `rules/<id>/` explains one (`nginx.error-page-proxied`).
    public static let rules = "rules/"
    public static func rule(_ id: String) -> String { rules + id + "/" }
    /// One language's search index files (`search/en/index.js`, …).
    public static func searchIndex(_ language: String) -> String { "search/\(language)/" }

    /// `errors/<language>/<status>.<ext>`, or `errors/<status>.<ext>` without a language.
    public static func errorPage(_ status: Int, language: String?, fileExtension: String) -> String {
        let folder = language.map { "\(errorsFolder)/\($0)/" } ?? "\(errorsFolder)/"
        return "\(folder)\(status).\(fileExtension)"
    }

    /// Cloudflare's custom error pages, one per page type: `errors/cloudflare/<language>/<type>.html`,
    /// and the default language's also without the language folder.
    public static func cloudflarePage(_ type: String, language: String?) -> String {
        let folder = language.map { "\(errorsFolder)/cloudflare/\($0)/" } ?? "\(errorsFolder)/cloudflare/"
        return "\(folder)\(type).html"
    }

    /// The file a folder-style page is written to.
    public static func file(of page: String) -> String { page + "index.html" }

    /// `path` under the folder the site is installed in on a server (`/usr/share/detour`).
    public static func installed(_ path: String, in installPath: String) -> String { installPath + "/" + path }

    /// The paths templates link with, relative to the site root (`site.paths`): the search
    /// page, its file, and the search index of `language`.
    public static func templatePaths(language: String) -> [String: String] {
        ["search": search, "searchFile": file(of: search), "searchIndex": searchIndex(language), "home": home]
    }
}
