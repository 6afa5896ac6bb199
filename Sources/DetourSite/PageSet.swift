import DetourContent
import DetourLayout
import DetourRules
import DetourYAML
import Foundation

/// Every file one build writes, and how each is rendered.
struct PageSet: Sendable {
    /// The cases that carry a code hold it boxed: a job list of every page of a large site
    /// would otherwise be as wide as `ErrorCode` per page.
    enum Job: Sendable {
        /// One code's error page in one language and format.
        indirect case errorPage(ErrorCode, language: String, format: OutputFormat)
        /// One of Cloudflare's pages in one language, when the theme has a `cloudflare` template.
        case cloudflarePage(CloudflarePage, language: String)
        /// The home page, a code's page and an article's, in each of the site's languages.
        case index(language: String)
        indirect case code(ErrorCode, language: String)
        case article(Int, language: String)
        case tag(Int)
        /// The search results page, when the theme has a `search` template.
        case search
        case styles
        /// `sitemap.xml`, and each of its parts when a site is too large for one file.
        case sitemap
        case sitemapPart(Int)
        case robots
        case notFound
        /// `templates/snippets/<name>.mustache` → `snippets/<name>`, and the Kubernetes manifests
        /// `templates/kubernetes/<name>.mustache` → `kubernetes/<name>`.
        case snippet(String)
        /// The rule pages (`rules/<id>/`) and their list, when the theme has `rule` and `rules`
        /// templates: where findings of `detour check` and `build` link.
        case rule(String)
        case rules
    }

    struct Tag: Sendable {
        var name: String
        var articles: [Int]
    }

    static let cardTemplate = "partials/article-card"
    static let searchTemplate = "search"
    static let notFoundTemplate = "404"
    static let cloudflareTemplate = "cloudflare"
    static let ruleTemplate = "rule"
    static let rulesTemplate = "rules"
    /// Kubernetes manifests: snippets whose model also holds pages (`snippetFields`).
    static let kubernetesFolder = "kubernetes/"

    let content: Content
    var model: PageModel
    let tags: [Tag]
    let jobs: [Job]
    let sitemap: Sitemap
    /// The pages each sitemap file lists (`Sitemap.parts`).
    let sitemapParts: [Range<Int>]

    init(content: Content, model: PageModel, templates: TemplateSet) {
        self.content = content
        var model = model
        let plain = model
        for (language, root) in Self.roots(of: content, model: model) {
            var tree = TemplateTree()
            for name in templates.names {
                let partial = LazyText {
                    templates.render(name, TemplateFields().with("site", plain.site(root: root, language: language)).with("t", plain.stringData(in: language)))
                }
                tree.insert(partial.templateData, at: name)
            }
            model.cachedPartials[PageModel.key(language, root)] = tree
            if templates.has(Self.cardTemplate) {
                // Cards link from their list's page: within the language's folder.
                let listRoot = Self.languageRoot(root, language: language, content: content)
                // Rendered each time a list shows it: most cards are shown once per language
                // (the home page), and a large site's would otherwise be held to the end.
                model.cards[PageModel.key(language, listRoot)] = { index in
                    templates.render(Self.cardTemplate, plain.articleSummary(at: index, language: language, root: listRoot))
                }
            }
        }
        self.model = model
        // Tags that differ only in case or punctuation share one page, named as first written.
        var bySlug: [String: Tag] = [:]
        for (index, article) in content.articles.enumerated() {
            for tag in article.tags {
                let slug = Slug.make(tag)
                if bySlug[slug]?.articles.last != index { bySlug[slug, default: Tag(name: tag, articles: [])].articles.append(index) }
            }
        }
        tags = bySlug.sorted { $0.key < $1.key }.map(\.value)
        let errorPages = content.codes.filter(\.generatesPage).flatMap { code in
            content.site.languages.flatMap { language in
                OutputFormat.all.filter { $0.applies(to: code.status) }.map { Job.errorPage(code, language: language, format: $0) }
            }
        }
        let languages = content.site.languages
        sitemap = Sitemap(baseURL: content.site.baseURL, paths: [""] + content.codes.map(\.sitePath) + content.articles.map(\.sitePath), languages: languages)
        sitemapParts = sitemap.parts
        let sitemapParts = sitemapParts.count > 1 ? sitemapParts.indices.map(Job.sitemapPart) : []
        let cloudflarePages =
            templates.has(Self.cloudflareTemplate)
            ? languages.flatMap { language in CloudflarePage.allCases.map { Job.cloudflarePage($0, language: language) } } : []
        jobs =
            errorPages + cloudflarePages
            + languages.map { Job.index(language: $0) } + [.styles, .sitemap] + sitemapParts + [.robots]
            + (templates.has(Self.searchTemplate) ? [.search] : [])
            + (templates.has(Self.notFoundTemplate) ? [.notFound] : [])
            + languages.flatMap { language in content.codes.map { Job.code($0, language: language) } }
            // An article's pages one after another, so its body is let go soon after it is rendered.
            + content.articles.indices.flatMap { index in languages.map { Job.article(index, language: $0) } }
            + tags.indices.map(Job.tag)
            + templates.names.filter { $0.hasPrefix("snippets/") || $0.hasPrefix(Self.kubernetesFolder) }.map(Job.snippet)
            + (content.site.rulePages && templates.has(Self.ruleTemplate) ? RuleBook.all.map { Job.rule($0.id) } : [])
            + (content.site.rulePages && templates.has(Self.rulesTemplate) ? [.rules] : [])
    }

    /// Every language and root a page is rendered from: the default language's pages at the
    /// root, in `search/`, two folders deep and (404) at the site's own path; another
    /// language's one folder deeper.
    private static func roots(of content: Content, model: PageModel) -> [(String, String)] {
        content.site.languages.flatMap { language -> [(String, String)] in
            let folder = model.languageFolder(language)
            guard !folder.isEmpty else { return (SiteLayout.roots + [model.absoluteRoot]).map { (language, $0) } }
            return [(language, SiteLayout.root(of: folder)), (language, SiteLayout.root(of: folder + SiteLayout.code(0)))]
        }
    }

    /// The way from a page with `root` to its language's home.
    private static func languageRoot(_ root: String, language: String, content: Content) -> String {
        let folder = SiteLayout.languageFolder(language, defaultLanguage: content.site.language)
        guard !folder.isEmpty else { return root }
        return String(root.dropFirst(3 * folder.split(separator: "/").count))
    }

    /// Where the job's output goes: one file, or for the default language's error pages also
    /// the language-less copy in `errors/`.
    func paths(of job: Job) -> [String] {
        switch job {
        case .errorPage(let code, let language, let format):
            let page = SiteLayout.errorPage(code.status, language: language, fileExtension: format.fileExtension)
            guard language == content.site.language else { return [page] }
            return [page, SiteLayout.errorPage(code.status, language: nil, fileExtension: format.fileExtension)]
        case .cloudflarePage(let page, let language):
            let path = SiteLayout.cloudflarePage(page.rawValue, language: language)
            guard language == content.site.language else { return [path] }
            return [path, SiteLayout.cloudflarePage(page.rawValue, language: nil)]
        case .index(let language): return [SiteLayout.file(of: model.languageFolder(language) + SiteLayout.home)]
        case .code(let code, let language): return [SiteLayout.file(of: model.languageFolder(language) + code.sitePath)]
        case .article(let index, let language): return [SiteLayout.file(of: model.languageFolder(language) + content.articles[index].sitePath)]
        case .tag(let index): return [SiteLayout.file(of: SiteLayout.tag(tags[index].name))]
        case .search: return [SiteLayout.file(of: SiteLayout.search)]
        case .styles: return [SiteLayout.styles]
        case .sitemap: return [SiteLayout.sitemap]
        case .sitemapPart(let number): return [SiteLayout.sitemapPart(number + 1)]
        case .robots: return [SiteLayout.robots]
        case .notFound: return [SiteLayout.notFound]
        case .snippet(let name): return [name]
        case .rule(let id): return [SiteLayout.file(of: SiteLayout.rule(id))]
        case .rules: return [SiteLayout.file(of: SiteLayout.rules)]
        }
    }

    /// The template a page job renders, for what a page must never be (empty); nil for files
    /// that may be empty (style sheet, snippets) or are not templates (sitemap, robots.txt).
    func pageTemplate(of job: Job) -> String? {
        switch job {
        case .errorPage(_, _, let format): format.template
        case .cloudflarePage: Self.cloudflareTemplate
        case .index: "index"
        case .code: "code"
        case .article: "article"
        case .tag: "tag"
        case .search: Self.searchTemplate
        case .notFound: Self.notFoundTemplate
        case .rule: Self.ruleTemplate
        case .rules: Self.rulesTemplate
        case .styles, .sitemap, .sitemapPart, .robots, .snippet: nil
        }
    }

    /// An error page in `format`: its template's rendering, or the envelope around another format's.
    func renderErrorPage(
        _ code: ErrorCode, language: String, format: OutputFormat, with templates: TemplateSet, requestReference: String = OutputFormat.requestReferenceMarkup
    ) -> String {
        switch format.envelope {
        case .none:
            return templates.render(format.template ?? "error", model.errorPage(code, language: language, requestReference: requestReference))
        case .logFormat(let bodyName):
            // A marker no escaped text contains stands for the reference until `%` is doubled.
            let marker = "\u{1}detour-request-reference\u{1}"
            let body = renderErrorPage(code, language: language, format: OutputFormat.named(bodyName) ?? .html, with: templates, requestReference: marker)
            return body.replacingOccurrences(of: "%", with: "%%").replacingOccurrences(of: marker, with: SnippetTarget.haproxyRequestReference)
        case .httpResponse(let bodyName):
            let bodyFormat = OutputFormat.named(bodyName) ?? .html
            let body = renderErrorPage(code, language: language, format: bodyFormat, with: templates)
            return HTTPStatus.response(status: code.status, title: code.title, mediaType: bodyFormat.contentType, retryAfter: code.retryAfter, body: body)
        }
    }

    /// A snippet's model; a Kubernetes manifest's also holds the pages a proxy keeps in its own
    /// configuration (Envoy Gateway's ConfigMaps): the default language's HTML page of each
    /// status replaced from an upstream, as a YAML scalar with each `%` doubled, since Envoy reads
    /// a custom response's body as a format string whose `%` starts a command.
    private func snippetFields(_ name: String, with templates: TemplateSet) -> [String: Any] {
        var fields = SnippetModel(content: content, installPath: content.site.installPath).dictionary()
        guard name.hasPrefix(Self.kubernetesFolder) else { return fields }
        fields["upstreamPages"] = content.codes.filter { $0.generatesPage && SnippetTarget.replacedFromUpstream($0.status) }.map { code -> [String: Any] in
            let page = renderErrorPage(code, language: content.site.language, format: .html, with: templates)
            var entry: [String: Any] = [
                "status": code.status, "contentType": OutputFormat.html.contentType,
                "envoyBody": YAMLScalar.doubleQuoted(page.replacingOccurrences(of: "%", with: "%%")),
            ]
            entry["retryAfter"] = code.retryAfter
            return entry
        }
        return fields
    }

    /// A job whose file is written in pieces as they are made rather than held whole (a
    /// sitemap's `<urlset>`, up to 50 MB); nil for every other job, which `render` makes.
    func pieces(of job: Job) -> (((String) throws -> Void) throws -> Void)? {
        switch job {
        case .sitemap where sitemapParts.count == 1: { [sitemap] write in try sitemap.write(sitemap.paths.indices, to: write) }
        case .sitemapPart(let number): { [sitemap, range = sitemapParts[number]] write in try sitemap.write(range, to: write) }
        default: nil
        }
    }

    func render(_ job: Job, with templates: TemplateSet) -> String {
        switch job {
        case .errorPage(let code, let language, let format):
            renderErrorPage(code, language: language, format: format, with: templates)
        case .cloudflarePage(let page, let language):
            templates.render(Self.cloudflareTemplate, model.cloudflarePage(page, language: language))
        case .index(let language):
            templates.render("index", model.indexPage(language: language, tags: tags.map { ($0.name, $0.articles.count) }))
        case .code(let code, let language):
            templates.render("code", model.codePage(code, language: language))
        case .article(let index, let language):
            templates.render("article", model.articlePage(at: index, language: language))
        case .tag(let index):
            templates.render("tag", model.tagPage(name: tags[index].name, articles: tags[index].articles))
        case .search:
            templates.render(Self.searchTemplate, model.searchPage(tags: tags.map { ($0.name, $0.articles.count) }))
        case .styles:
            templates.render("style.css", TemplateFields().with("site", model.site(root: "")))
        case .snippet(let name):
            templates.render(name, UntypedTemplateValue(value: snippetFields(name, with: templates)))
        case .sitemap:
            sitemap.xml(parts: sitemapParts)
        case .sitemapPart(let number):
            sitemap.xml(of: sitemapParts[number])
        case .robots:
            // Error pages carry noindex themselves; crawlers must be let in to read it.
            "User-agent: *\nAllow: /\nSitemap: \(content.site.baseURL)\(SiteLayout.sitemap)\n"
        case .notFound:
            templates.render(Self.notFoundTemplate, model.notFoundPage())
        case .rule(let id):
            model.rulePage(id).map { templates.render(Self.ruleTemplate, $0) } ?? ""
        case .rules:
            templates.render(Self.rulesTemplate, model.rulesPage())
        }
    }
}
