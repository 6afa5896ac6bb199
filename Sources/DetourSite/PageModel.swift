import DetourContent
import DetourLanguages
import DetourLayout
import DetourLogs
import DetourRules
import DetourTemplates
import Foundation

/// The data templates see, as typed views (`Views/`) that `TemplateValue` turns into the plain
/// dictionaries swift-mustache reads. Keys are camelCase.
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
    /// Articles', advice's and notes' Markdown, rendered for the page that shows it.
    let bodies: MarkdownBodies
    /// Each language's search index entry, when its index is more than one file: the search
    /// page carries it, so a query's first request is for its terms.
    var searchIndexHeads: [String: String]
    /// The articles by section, and each article's section, worked out once for every page.
    let sections: [HomeGroups.Section]
    private let sectionOfArticle: [Int: Int]

    /// `bodies`: the articles' and codes' Markdown as this build renders it (`MarkdownBodies`).
    /// `everyPage`: the model will render the whole site, so what many pages share (sidebar
    /// links, tag paths) is made up front; a quick rebuild of a few pages makes what it needs.
    init(
        content: Content, errorPageAdvice: ErrorPageAdvice, bodies: MarkdownBodies, searchIndexHeads: [String: String] = [:], everyPage: Bool = true
    ) {
        self.content = content
        self.errorPageAdvice = errorPageAdvice
        self.searchIndexHeads = searchIndexHeads
        self.bodies = bodies
        sections = HomeGroups.sections(content.articles)
        var sectionOfArticle: [Int: Int] = [:]
        for (number, section) in sections.enumerated() {
            for article in section.articles { sectionOfArticle[article] = number }
        }
        self.sectionOfArticle = sectionOfArticle
        uiStrings = Dictionary(uniqueKeysWithValues: content.site.languages.map { ($0, Self.pageStrings(content, in: $0)) })
        uiStringData = uiStrings.mapValues(\.templateData)
        guard everyPage else {
            (tagPaths, sidebarLinks, articleBySlug) = ([:], [:], [:])
            return
        }
        articleBySlug = Self.articlesBySlug(content.articles)
        tagPaths = Dictionary(content.articles.flatMap(\.tags).map { ($0, SiteLayout.tag($0)) }, uniquingKeysWith: { first, _ in first })
        // A language whose title of an article is the default language's shares its link:
        // most articles of a large site are not translated into every language.
        let defaultLinks = content.articles.map { ArticleLink(title: $0.title, url: SiteLayout.nestedRoot + $0.sitePath, current: false) }
        sidebarLinks = Dictionary(
            uniqueKeysWithValues: content.site.languages.map { language in
                (
                    language,
                    // Each article read in place: a copy would count its every field.
                    content.articles.indices.map { index in
                        let title = content.articles[index].title(in: language)
                        return title == content.articles[index].title
                            ? defaultLinks[index] : ArticleLink(title: title, url: SiteLayout.nestedRoot + content.articles[index].sitePath, current: false)
                    }
                )
            })
    }

    /// Each language's UI strings with `{site}` filled in, worked out once for every page.
    private let uiStrings: [String: [String: String]]
    /// The same as templates read them, made once: every page and list entry shows them.
    private let uiStringData: [String: TemplateData]
    /// By language, each article's link as another article's sidebar shows it: made once,
    /// shown on the pages of its section's neighbours. Empty for a quick rebuild.
    private let sidebarLinks: [String: [ArticleLink]]
    /// Each tag's page, slugged once: every list entry links its article's tags. Empty for a
    /// quick rebuild.
    private let tagPaths: [String: String]
    /// Each article's index by its slug, for the codes' curated `related` lists: made once, not
    /// once per code page and language. Empty for a quick rebuild.
    private let articleBySlug: [String: Int]

    private static func articlesBySlug(_ articles: [Article]) -> [String: Int] {
        Dictionary(articles.indices.map { (articles[$0].slug, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Each article's `partials/article-card` by its index, by root: rendered where a list
    /// shows it, and not kept (`TextOnUse`).
    var cards: [String: @Sendable (Int) -> String] = [:]
    /// Every template rendered with only `site` in scope, on first use, by root, as a tree
    /// of its name's parts: `{{{cached.partials.header}}}`, like Hugo's partialCached.
    var cachedPartials: [String: TemplateTree] = [:]

    /// The site's own path from its base URL (`/` or `/help/`): the root of pages served at
    /// any depth, such as the 404 page.
    var absoluteRoot: String {
        let path = URL(string: content.site.baseURL)?.path ?? "/"
        return path.hasSuffix("/") ? path : path + "/"
    }

    /// What every help-site page sees besides its own `fields`. `path` is the page's own within
    /// its language's folder (`codes/502/`), nil for a page with no address of its own (404);
    /// `values` fill the UI strings' placeholders besides `{site}`.
    /// `inEveryLanguage`: the page is built in each language (home, codes, articles), so it names
    /// its alternates and offers the switcher; topics and search are the default language's.
    private func helpPage(
        language: String, path: String?, title: String, root fixedRoot: String? = nil, values: [String: String] = [:], inEveryLanguage: Bool = true,
        notTranslated: String? = nil, fields: TemplateFields
    ) -> HelpPage {
        let folder = languageFolder(language)
        let root = fixedRoot ?? SiteLayout.root(of: folder + (path ?? ""))
        var header = PageHeader(title: title, language: language, notTranslated: notTranslated)
        if let path {
            header.url = content.site.baseURL + folder + path
            let languages = content.site.languages
            if languages.count > 1, inEveryLanguage {
                header.alternates =
                    languages.map { PageHeader.Alternate(language: $0, url: content.site.baseURL + languageFolder($0) + path) }
                    + [PageHeader.Alternate(language: "x-default", url: content.site.baseURL + path)]
                header.languages = languages.map { other in
                    PageHeader.LanguageChoice(
                        language: other, name: strings(in: other)["language_name"] ?? other, url: root + languageFolder(other) + path,
                        current: other == language)
                }
            }
        }
        return HelpPage(
            site: site(root: root, language: language), header: header, t: stringData(in: language, values), cached: cachedPartials[Self.key(language, root)],
            fields: fields)
    }

    /// The key of what is cached per language and root.
    static func key(_ language: String, _ root: String) -> String { language + "|" + root }

    func languageFolder(_ language: String) -> String { SiteLayout.languageFolder(language, defaultLanguage: content.site.language) }

    /// The UI strings of `language` with `{site}` and `values` filled in.
    func strings(in language: String, _ values: [String: String] = [:]) -> [String: String] {
        let strings = uiStrings[language] ?? Self.pageStrings(content, in: language)
        return values.isEmpty ? strings : strings.mapValues { UIStrings.fill($0, values) }
    }

    /// The UI strings of `language` as pages show them, `{site}` filled in.
    static func pageStrings(_ content: Content, in language: String) -> [String: String] {
        content.strings(in: language).mapValues { UIStrings.fill($0, ["site": content.site.name]) }
    }

    /// `strings(in:_:)` as templates read them.
    func stringData(in language: String, _ values: [String: String] = [:]) -> TemplateData {
        guard values.isEmpty, let data = uiStringData[language] else { return strings(in: language, values).templateData }
        return data
    }

    /// The site as a page in `language` sees it: `root` leads to the site's root (style sheet,
    /// script), `home` to the language's home page.
    func site(root: String, language: String? = nil) -> SiteView {
        let site = content.site
        let language = language ?? site.language
        return SiteView(
            name: site.name, baseURL: site.baseURL, language: language, light: .init(site.light), dark: .init(site.dark), root: root,
            home: root + languageFolder(language), paths: SiteLayout.templatePaths(language: language),
            // The search page is the default language's; it searches this language's index.
            searchLanguage: language == site.language ? nil : language,
            logo: site.logoSVG, statusPage: site.statusPage, footer: site.footer, errorFooter: site.errorFooter, autoRetry: site.autoRetry,
            support: site.support.isEmpty ? nil : SiteView.Support(email: site.support.email, url: site.support.url, phone: site.support.phone))
    }

    /// `root` leads to the page's language's home (`../../`, within `de/` too).
    func codeSummary(_ code: ErrorCode, language: String, root: String) -> CodeSummary {
        let text = content.text(of: code, in: language)
        return CodeSummary(status: code.status, title: text.title, summary: text.summary, url: root + code.sitePath)
    }

    /// An article as lists in `language` show it; `card` is its `partials/article-card`,
    /// rendered when a list shows it.
    func articleSummary(at index: Int, language: String, root: String) -> ArticleSummary {
        let article = content.articles[index].translated(language)
        return ArticleSummary(
            title: article.title, summary: article.summary, url: root + article.sitePath, audience: article.audience.rawValue,
            codes: article.codes.map { ArticleSummary.CodeLink(status: $0.value, url: root + SiteLayout.code($0.value)) },
            tags: article.tags.map { tag(name: $0, root: tagRoot(root, language: language)) }, updated: article.updated,
            card: cards[Self.key(language, root)].map { card in TextOnUse { card(index) } }, t: stringData(in: language))
    }

    /// How many of its section's articles an article's sidebar shows.
    static let sidebarSize = 25

    /// The positions a sidebar shows: `sidebarSize` around `position`, fewer only at the ends.
    static func sidebarWindow(around position: Int, count: Int) -> Range<Int> {
        let start = min(max(0, position - sidebarSize / 2), max(0, count - sidebarSize))
        return start..<min(count, start + sidebarSize)
    }

    private func articleLink(_ index: Int, language: String, root: String, current: Bool? = nil) -> ArticleLink {
        ArticleLink(title: content.articles[index].title(in: language), url: root + content.articles[index].sitePath, current: current)
    }

    /// Tag pages are the default language's: the way to them from a language's `root`.
    private func tagRoot(_ root: String, language: String) -> String {
        language == content.site.language ? root : root + "../"
    }

    func tag(name: String, root: String, count: Int? = nil) -> TagLink {
        TagLink(name: name, url: root + (tagPaths[name] ?? SiteLayout.tag(name)), count: count)
    }

    // MARK: Pages

    /// One code's error page in one language: its texts, the UI strings (`t`) with this page's
    /// values filled in, and the site with `language` set to the page's.
    /// `requestReference`: raw markup where the request's ID goes (see `SnippetTarget`).
    func errorPage(_ code: ErrorCode, language: String, requestReference: String = OutputFormat.requestReferenceMarkup) -> ErrorPageView {
        let text = content.text(of: code, in: language)
        let baseURL = content.site.baseURL
        let advice = errorPageAdvice[language]?[code.status]
        // `url` names the problem (JSON's `type`) in every language; the link a visitor
        // follows goes to the help page in theirs.
        let model = ErrorPageView.Code(
            summary: CodeSummary(status: code.status, title: text.title, summary: text.summary, url: baseURL + code.sitePath),
            helpURL: baseURL + languageFolder(language) + code.sitePath, advice: advice?.html, adviceText: advice?.text, retryAfter: code.retryAfter)
        var values = ["status": String(code.status), "title": text.title]
        values["seconds"] = code.retryAfter.map(String.init)
        let strings = content.strings(in: language).mapValues { UIStrings.fill($0, values) }
        var site = site(root: baseURL)
        site.language = language
        site.icon = iconDataURI
        return ErrorPageView(site: site, code: model, t: strings, title: "\(code.status) \(text.title)", requestReference: requestReference)
    }

    /// One of Cloudflare's pages in one language. Its help link goes to the code Cloudflare sends
    /// it with (403, 429) or, for the pages whose box names the code, the home page's list of
    /// Cloudflare's codes; to the home page where the help site has neither.
    func cloudflarePage(_ page: CloudflarePage, language: String) -> CloudflarePageView {
        let home = content.site.baseURL + languageFolder(language)
        var helpURL = home
        if let status = page.status, let code = content.code(status) {
            helpURL = home + code.sitePath
        } else if page == .serverErrors, HomeGroups.codes(content.codes).contains(where: { $0.titleKey == HomeGroups.cdnGroup }) {
            helpURL = home + "#" + HomeGroups.cdnGroup
        }
        let strings = strings(in: language, page.status.map { ["status": String($0)] } ?? [:])
        var site = site(root: content.site.baseURL)
        site.language = language
        site.icon = iconDataURI
        let view = CloudflarePageView.Page(
            type: page.rawValue, title: strings[page.titleKey] ?? page.titleKey, lead: strings[page.leadKey] ?? page.leadKey, token: page.token,
            status: page.status, showsRayID: page != .serverErrors && page != .cloudflareErrors, helpURL: helpURL)
        return CloudflarePageView(site: site, page: view, t: strings)
    }

    /// A dot in the accent colour as the page's icon, so a browser asks the dead site for no
    /// `/favicon.ico`. The colour is a checked hex value; `#` is the one character to encode.
    private var iconDataURI: String {
        let accent = content.site.light.accent.replacingOccurrences(of: "#", with: "%23")
        return "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Ccircle cx='8' cy='8' r='7' fill='\(accent)'/%3E%3C/svg%3E"
    }

    /// A group of codes or a section of articles on the home page.
    private struct HomeGroup: TemplateValue {
        var title: String
        var id: String
        var count: Int?
        var codes: [CodeSummary]?
        var articles: GeneratedValues<ArticleSummary>?

        var templateData: TemplateData {
            TemplateFields().with("title", title).with("id", id).with("count", count).with("codes", codes).with("articles", articles).templateData
        }
    }

    func indexPage(language: String, tags: [(name: String, count: Int)]) -> HelpPage {
        let root = ""
        let strings = strings(in: language)
        let codeGroups = HomeGroups.codes(content.codes).map { group in
            HomeGroup(
                title: strings[group.titleKey] ?? group.titleKey, id: group.titleKey, codes: group.codes.map { codeSummary($0, language: language, root: root) }
            )
        }
        let visitorArticles = content.articles.indices.filter { content.articles[$0].audience == .visitor }
        let sections = sections.map { section in
            HomeGroup(
                title: section.title, id: "section-" + (section.folder.isEmpty ? "articles" : section.folder), count: section.articles.count,
                articles: GeneratedValues(section.articles) { articleSummary(at: $0, language: language, root: root) })
        }
        let fields = TemplateFields()
            .with("codes", content.codes.map { codeSummary($0, language: language, root: root) })
            .with("codeGroups", codeGroups)
            .with("visitorArticles", GeneratedValues(visitorArticles) { articleSummary(at: $0, language: language, root: root) })
            .with("visitorCodes", content.codes.filter { [500, 502, 503, 504].contains($0.status) }.map { codeSummary($0, language: language, root: root) })
            .with("sections", sections)
            .with("articles", GeneratedValues(Array(content.articles.indices)) { articleSummary(at: $0, language: language, root: root) })
            .with("tags", tags.map { tag(name: $0.name, root: tagRoot(root, language: language), count: $0.count) })
        return helpPage(language: language, path: SiteLayout.home, title: content.site.name, fields: fields)
    }

    /// A code's help page in `language`: its texts and advice translated where they are,
    /// the operators' notes as written.
    func codePage(_ code: ErrorCode, language: String) -> HelpPage {
        let root = SiteLayout.nestedRoot
        let text = content.text(of: code, in: language)
        var errorPageURL: String?
        if code.generatesPage {
            let page = SiteLayout.errorPage(
                code.status, language: language == content.site.language ? nil : language, fileExtension: OutputFormat.html.fileExtension)
            errorPageURL = SiteLayout.root(of: languageFolder(language) + code.sitePath) + page
        }
        let articles = content.articles
        let bySlug = articleBySlug.isEmpty ? Self.articlesBySlug(articles) : articleBySlug
        // Curated `related` first, then every other article that lists this status.
        let curated = code.related.compactMap { bySlug[$0.value] }
        let curatedSlugs = Set(code.related.map(\.value))
        let listing = articles.indices.filter { index in
            articles[index].codes.contains { $0.value == code.status } && !curatedSlugs.contains(articles[index].slug)
        }
        let model = CodePageView(
            summary: codeSummary(code, language: language, root: root),
            advice: text.adviceDocument.map { bodies.html($0, fromPath: text.adviceFile, language: text.adviceLanguage, root: root) },
            operatorNotes: code.operatorNotesDocument.map { bodies.html($0, fromPath: code.relativePath, language: content.site.language, root: root) },
            notesLanguage: content.site.language, retryAfter: code.retryAfter, emittedBy: code.emittedBy, formerNames: code.formerNames,
            errorPageURL: errorPageURL,
            related: GeneratedValues(curated + listing) { articleSummary(at: $0, language: language, root: root) })
        let title = "\(code.status) \(text.title) · \(content.site.name)"
        return helpPage(
            language: language, path: code.sitePath, title: title, values: ["status": String(code.status)], fields: TemplateFields().with("code", model))
    }

    /// An article's page in `language`: its translation, or the original with a notice.
    func articlePage(at index: Int, language: String) -> HelpPage {
        let root = SiteLayout.nestedRoot
        let original = content.articles[index]
        let article = original.translated(language)
        var summary = articleSummary(at: index, language: language, root: root)
        summary.codes = article.codes.map { located in
            ArticleSummary.CodeLink(
                status: located.value, url: root + SiteLayout.code(located.value),
                title: content.code(located.value).map { content.text(of: $0, in: language).title })
        }
        let translated = language == content.site.language || original.translations[language] != nil
        var model = ArticlePageView(
            summary: summary, html: bodies.article(at: index, language: language),
            language: translated ? language : content.site.language,
            headings: ArticlePageView.headings(of: article), logPatterns: article.logPatterns.map(\.value))
        model.confirmations = ArticlePageView.confirmations(of: article)
        // Where it is filed: the section's other articles, and the ones before and after it.
        if let section = sectionOfArticle[index].map({ sections[$0] }) {
            model.section = section.title
            let position = section.articles.firstIndex(of: index) ?? 0
            // A section of thousands would repeat thousands of links on each of its pages: the
            // sidebar shows the articles around this one, the home page lists them all.
            let window = Self.sidebarWindow(around: position, count: section.articles.count)
            let links = sidebarLinks[language] ?? []
            model.sectionArticles = section.articles[window].map {
                $0 == index || links.isEmpty ? articleLink($0, language: language, root: root, current: $0 == index) : links[$0]
            }
            if window.count < section.articles.count {
                model.sectionURL = root + SiteLayout.home + "#section-" + (section.folder.isEmpty ? "articles" : section.folder)
                model.sectionCount = section.articles.count
            }
            if position > 0 { model.previous = articleLink(section.articles[position - 1], language: language, root: root) }
            if position + 1 < section.articles.count { model.next = articleLink(section.articles[position + 1], language: language, root: root) }
            if section.articles.count > 1 { model.pager = true }
        }
        if let editURL = content.site.editURL {
            model.editURL = editURL + (original.translations[language]?.relativePath ?? original.relativePath)
        }
        return helpPage(
            language: language, path: article.sitePath, title: "\(article.title) · \(content.site.name)",
            notTranslated: translated ? nil : strings(in: language)["not_translated"], fields: TemplateFields().with("article", model))
    }

    /// The search page: what it lists for a visitor with no query or no JavaScript.
    func searchPage(tags: [(name: String, count: Int)]) -> HelpPage {
        let root = SiteLayout.root(of: SiteLayout.search)
        let language = content.site.language
        let fields = TemplateFields()
            .with("codes", content.codes.map { codeSummary($0, language: language, root: root) })
            .with("tags", tags.map { tag(name: $0.name, root: root, count: $0.count) })
            .with("searchIndexHead", searchIndexHeads[language])
        return helpPage(language: language, path: SiteLayout.search, title: "Search · \(content.site.name)", inEveryLanguage: false, fields: fields)
    }

    /// A tag's page: its name and the articles that carry it.
    private struct TagPageView: TemplateValue {
        var name: String
        var articles: GeneratedValues<ArticleSummary>

        var templateData: TemplateData { TemplateFields().with("name", name).with("articles", articles).templateData }
    }

    func tagPage(name: String, articles: [Int]) -> HelpPage {
        let root = SiteLayout.nestedRoot
        let language = content.site.language
        let tag = TagPageView(name: name, articles: GeneratedValues(articles) { articleSummary(at: $0, language: language, root: root) })
        return helpPage(
            language: language, path: SiteLayout.tag(name), title: "\(name) · \(content.site.name)", inEveryLanguage: false,
            fields: TemplateFields().with("tag", tag))
    }

    /// A rule's page, in the default language only: its texts are detour's own, in English.
    func rulePage(_ id: String) -> HelpPage? {
        guard let explanation = RuleExplanation(id) else { return nil }
        let rule = RulePageView(explanation: explanation, index: "../")
        return helpPage(
            language: content.site.language, path: SiteLayout.rule(id), title: "\(id) · \(content.site.name)", inEveryLanguage: false,
            fields: TemplateFields().with("rule", rule))
    }

    /// The list of rules, topic by topic.
    func rulesPage() -> HelpPage {
        helpPage(
            language: content.site.language, path: SiteLayout.rules, title: "Rules · \(content.site.name)", inEveryLanguage: false,
            fields: TemplateFields().with("rules", RuleListView()))
    }

    /// The help site's own 404 page: no canonical URL, links from the site's path.
    func notFoundPage() -> HelpPage {
        let root = absoluteRoot
        let language = content.site.language
        return helpPage(
            language: language, path: nil, title: "Page not found · \(content.site.name)", root: root,
            fields: TemplateFields().with("codes", content.codes.map { codeSummary($0, language: language, root: root) }))
    }
}
