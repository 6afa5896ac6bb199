import DetourContent
import DetourLanguages
import DetourLayout
import Foundation

/// The data templates see, as plain dictionaries (swift-mustache reads those without reflection).
/// Keys are camelCase; optional values are left out so `{{#key}}` sections test for presence,
/// while lists are always present (possibly empty) so `{{^empty(list)}}` works.
/// `root` is the way back to the site root from the page (`../../`), so the site works under any path.
struct PageModel: Sendable {
    /// A code's advice on an error page, links absolute: served from the proxy, not the help site.
    struct Advice: Sendable {
        var html: String
        var text: String
    }
    /// By language, then status. Articles do not change it: their links resolve by slug.
    typealias ErrorPageAdvice = [String: [Int: Advice]]

    let content: Content
    let errorPageAdvice: ErrorPageAdvice
    /// Each article's `partials/article-card`, rendered on first use, by root then article index.
    var cards: [String: [LazyText]] = [:]
    /// Every template rendered with only `site` in scope, on first use, by root, as a tree
    /// of its name's parts: `{{{cached.partials.header}}}`, like Hugo's partialCached.
    var cachedPartials: [String: [String: any Sendable]] = [:]

    /// The site's own path from its base URL (`/` or `/help/`): the root of pages served at
    /// any depth, such as the 404 page.
    var absoluteRoot: String {
        let path = URL(string: content.site.baseURL)?.path ?? "/"
        return path.hasSuffix("/") ? path : path + "/"
    }

    /// What every help-site page sees besides its own data; `path` is the page's own, from the
    /// site root, for its canonical URL.
    private func common(root: String, title: String, path: String?) -> [String: Any] {
        var page: [String: Any] = ["title": title]
        page["url"] = path.map { content.site.baseURL + $0 }
        var common: [String: Any] = ["site": site(root: root), "page": page]
        common["cached"] = cachedPartials[root]
        return common
    }

    func site(root: String) -> [String: Any] {
        let site = content.site
        var model: [String: Any] = [
            "name": site.name,
            "baseURL": site.baseURL,
            "language": site.language,
            "colors": ["light": palette(site.light), "dark": palette(site.dark)],
            "root": root,
            "paths": SiteLayout.templatePaths(language: site.language),
        ]
        model["logo"] = site.logoSVG
        model["statusPage"] = site.statusPage
        model["footer"] = site.footer
        model["errorFooter"] = site.errorFooter
        model["autoRetry"] = site.autoRetry
        if !site.support.isEmpty {
            var support: [String: Any] = [:]
            support["email"] = site.support.email
            support["url"] = site.support.url
            support["phone"] = site.support.phone
            model["support"] = support
        }
        return model
    }

    private func palette(_ palette: SiteConfig.Palette) -> [String: Any] {
        ["background": palette.background, "text": palette.text, "accent": palette.accent, "muted": palette.muted]
    }

    func codeSummary(_ code: ErrorCode, root: String) -> [String: Any] {
        ["status": code.status, "title": code.title, "summary": code.summary, "url": root + code.sitePath]
    }

    /// An article as lists show it; `card` is its `partials/article-card`, rendered once.
    func articleSummary(at index: Int, root: String) -> [String: Any] {
        let article = content.articles[index]
        var model: [String: Any] = [
            "title": article.title,
            "summary": article.summary,
            "url": root + article.sitePath,
            "audience": article.audience.rawValue,
            "codes": article.codes.map { ["status": $0.value, "url": root + SiteLayout.code($0.value)] as [String: Any] },
            "tags": article.tags.map { tag(name: $0, root: root) },
        ]
        model["updated"] = article.updated
        model["card"] = cards[root]?[index]
        return model
    }

    func tag(name: String, root: String) -> [String: Any] {
        ["name": name, "url": root + SiteLayout.tag(name)]
    }

    // MARK: Pages

    /// One code's error page in one language: its texts, the UI strings (`t`) with this page's
    /// values filled in, and the site with `language` set to the page's.
    /// `requestReference`: raw markup where the request's ID goes (see `SnippetTarget`).
    func errorPage(_ code: ErrorCode, language: String, requestReference: String = SnippetTarget.requestReferenceMarkup) -> [String: Any] {
        let text = content.text(of: code, in: language)
        let baseURL = content.site.baseURL
        var model: [String: Any] = ["status": code.status, "title": text.title, "summary": text.summary, "url": baseURL + code.sitePath]
        model["helpURL"] = baseURL + code.sitePath
        let advice = errorPageAdvice[language]?[code.status]
        model["advice"] = advice?.html
        model["adviceText"] = advice?.text
        model["retryAfter"] = code.retryAfter
        var values = ["status": String(code.status), "title": text.title]
        values["seconds"] = code.retryAfter.map(String.init)
        let strings = content.strings(in: language).mapValues { UIStrings.fill($0, values) }
        var site = site(root: baseURL)
        site["language"] = language
        site["icon"] = iconDataURI
        return ["site": site, "code": model, "t": strings, "page": ["title": "\(code.status) \(text.title)"], "requestReference": requestReference]
    }

    /// A dot in the accent colour as the page's icon, so a browser asks the dead site for no
    /// `/favicon.ico`. The colour is a checked hex value; `#` is the one character to encode.
    private var iconDataURI: String {
        let accent = content.site.light.accent.replacingOccurrences(of: "#", with: "%23")
        return "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Ccircle cx='8' cy='8' r='7' fill='\(accent)'/%3E%3C/svg%3E"
    }

    func indexPage(tags: [(name: String, count: Int)]) -> [String: Any] {
        common(root: "", title: content.site.name, path: "").merging([
            "codes": content.codes.map { codeSummary($0, root: "") },
            "articles": content.articles.indices.map { articleSummary(at: $0, root: "") },
            "tags": tags.map { tag(name: $0.name, root: "").merging(["count": $0.count]) { first, _ in first } },
        ]) { first, _ in first }
    }

    func codePage(_ code: ErrorCode) -> [String: Any] {
        let root = SiteLayout.nestedRoot
        var model = codeSummary(code, root: root)
        model["advice"] = code.adviceHTML
        model["operatorNotes"] = code.operatorNotesHTML
        model["retryAfter"] = code.retryAfter
        model["emittedBy"] = code.emittedBy
        if code.generatesPage {
            model["errorPageURL"] = root + SiteLayout.errorPage(code.status, language: nil, fileExtension: OutputFormat.html.fileExtension)
        }
        let articles = content.articles
        let bySlug = Dictionary(articles.indices.map { (articles[$0].slug, $0) }, uniquingKeysWith: { first, _ in first })
        // Curated `related` first, then every other article that lists this status.
        let curated = code.related.compactMap { bySlug[$0.value] }
        let curatedSlugs = Set(code.related.map(\.value))
        let listing = articles.indices.filter { index in
            articles[index].codes.contains { $0.value == code.status } && !curatedSlugs.contains(articles[index].slug)
        }
        model["related"] = (curated + listing).map { articleSummary(at: $0, root: root) }
        return common(root: root, title: "\(code.status) \(code.title) · \(content.site.name)", path: code.sitePath).merging(["code": model]) { first, _ in
            first
        }
    }

    func articlePage(at index: Int) -> [String: Any] {
        let root = SiteLayout.nestedRoot
        let article = content.articles[index]
        var model = articleSummary(at: index, root: root)
        model["html"] = article.html
        model["headings"] = article.headings.filter { $0.level <= 3 }.map { ["level": $0.level, "text": $0.text, "id": $0.id] as [String: Any] }
        model["logPatterns"] = article.logPatterns.map(\.value)
        model["codes"] = article.codes.map { located -> [String: Any] in
            var code: [String: Any] = ["status": located.value, "url": root + SiteLayout.code(located.value)]
            code["title"] = content.code(located.value)?.title
            return code
        }
        return common(root: root, title: "\(article.title) · \(content.site.name)", path: article.sitePath).merging(["article": model]) { first, _ in first }
    }

    /// The search page: what it lists for a visitor with no query or no JavaScript.
    func searchPage(tags: [(name: String, count: Int)]) -> [String: Any] {
        let root = SiteLayout.root(of: SiteLayout.search)
        return common(root: root, title: "Search · \(content.site.name)", path: SiteLayout.search).merging([
            "codes": content.codes.map { codeSummary($0, root: root) },
            "tags": tags.map { tag(name: $0.name, root: root).merging(["count": $0.count]) { first, _ in first } },
        ]) { first, _ in first }
    }

    func tagPage(name: String, articles: [Int]) -> [String: Any] {
        let root = SiteLayout.nestedRoot
        let tag: [String: Any] = ["name": name, "articles": articles.map { articleSummary(at: $0, root: root) }]
        return common(root: root, title: "\(name) · \(content.site.name)", path: SiteLayout.tag(name)).merging(["tag": tag]) { first, _ in first }
    }

    /// The help site's own 404 page: no canonical URL, links from the site's path.
    func notFoundPage() -> [String: Any] {
        let root = absoluteRoot
        return common(root: root, title: "Page not found · \(content.site.name)", path: nil).merging([
            "codes": content.codes.map { codeSummary($0, root: root) }
        ]) { first, _ in first }
    }
}
