import DetourContent
import DetourLayout
import Foundation

/// Every file one build writes, and how each is rendered.
struct PageSet: Sendable {
    enum Job: Sendable {
        /// One code's error page in one language and format.
        case errorPage(ErrorCode, language: String, format: OutputFormat)
        case index
        case code(ErrorCode)
        case article(Int)
        case tag(Int)
        /// The search results page, when the theme has a `search` template.
        case search
        case styles
        case sitemap
        case robots
        case notFound
        /// `templates/snippets/<name>.mustache` → `snippets/<name>`.
        case snippet(String)
    }

    struct Tag: Sendable {
        var name: String
        var articles: [Int]
    }

    static let cardTemplate = "partials/article-card"
    static let searchTemplate = "search"
    static let notFoundTemplate = "404"

    let content: Content
    let model: PageModel
    let tags: [Tag]
    let jobs: [Job]

    init(content: Content, model: PageModel, templates: TemplateSet) {
        self.content = content
        var model = model
        let plain = model
        // The 404 page is served at any depth, so its links start at the site's own path.
        let roots = SiteLayout.roots + [model.absoluteRoot]
        for root in roots {
            var tree = TemplateTree()
            for name in templates.names {
                tree.insert(LazyText { templates.render(name, ["site": plain.site(root: root)]) }, at: name)
            }
            model.cachedPartials[root] = tree.root
        }
        if templates.has(Self.cardTemplate) {
            for root in roots {
                model.cards[root] = content.articles.indices.map { index in
                    LazyText { templates.render(Self.cardTemplate, plain.articleSummary(at: index, root: root)) }
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
        jobs =
            errorPages
            + [.index, .styles, .sitemap, .robots]
            + (templates.has(Self.searchTemplate) ? [.search] : [])
            + (templates.has(Self.notFoundTemplate) ? [.notFound] : [])
            + content.codes.map(Job.code)
            + content.articles.indices.map(Job.article)
            + tags.indices.map(Job.tag)
            + templates.names.filter { $0.hasPrefix("snippets/") }.map(Job.snippet)
    }

    /// Where the job's output goes: one file, or for the default language's error pages also
    /// the language-less copy in `errors/`.
    func paths(of job: Job) -> [String] {
        switch job {
        case .errorPage(let code, let language, let format):
            let page = SiteLayout.errorPage(code.status, language: language, fileExtension: format.fileExtension)
            guard language == content.site.language else { return [page] }
            return [page, SiteLayout.errorPage(code.status, language: nil, fileExtension: format.fileExtension)]
        case .index: return [SiteLayout.file(of: SiteLayout.home)]
        case .code(let code): return [SiteLayout.file(of: code.sitePath)]
        case .article(let index): return [SiteLayout.file(of: content.articles[index].sitePath)]
        case .tag(let index): return [SiteLayout.file(of: SiteLayout.tag(tags[index].name))]
        case .search: return [SiteLayout.file(of: SiteLayout.search)]
        case .styles: return [SiteLayout.styles]
        case .sitemap: return [SiteLayout.sitemap]
        case .robots: return [SiteLayout.robots]
        case .notFound: return [SiteLayout.notFound]
        case .snippet(let name): return [name]
        }
    }

    /// An error page in `format`: its template's rendering, or the envelope around another format's.
    func renderErrorPage(
        _ code: ErrorCode, language: String, format: OutputFormat, with templates: TemplateSet, requestReference: String = SnippetTarget.requestReferenceMarkup
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

    func render(_ job: Job, with templates: TemplateSet) -> String {
        switch job {
        case .errorPage(let code, let language, let format):
            renderErrorPage(code, language: language, format: format, with: templates)
        case .index:
            templates.render("index", model.indexPage(tags: tags.map { ($0.name, $0.articles.count) }))
        case .code(let code):
            templates.render("code", model.codePage(code))
        case .article(let index):
            templates.render("article", model.articlePage(at: index))
        case .tag(let index):
            templates.render("tag", model.tagPage(name: tags[index].name, articles: tags[index].articles))
        case .search:
            templates.render(Self.searchTemplate, model.searchPage(tags: tags.map { ($0.name, $0.articles.count) }))
        case .styles:
            templates.render("style.css", ["site": model.site(root: "")])
        case .snippet(let name):
            templates.render(name, SnippetModel(content: content, installPath: content.site.installPath).dictionary())
        case .sitemap:
            Sitemap(baseURL: content.site.baseURL, paths: [""] + content.codes.map(\.sitePath) + content.articles.map(\.sitePath)).xml
        case .robots:
            // Error pages carry noindex themselves; crawlers must be let in to read it.
            "User-agent: *\nAllow: /\nSitemap: \(content.site.baseURL)\(SiteLayout.sitemap)\n"
        case .notFound:
            templates.render(Self.notFoundTemplate, model.notFoundPage())
        }
    }
}
