import DetourContent
import Foundation

/// Every file one build writes, and how each is rendered.
struct PageSet: Sendable {
    enum Job: Sendable {
        case errorPage(ErrorCode)
        case index
        case code(ErrorCode)
        case article(Int)
        case tag(Int)
        case styles
        case sitemap
        /// `templates/snippets/<name>.mustache` → `snippets/<name>`.
        case snippet(String)
    }

    struct Tag: Sendable {
        var name: String
        var articles: [Int]
    }

    static let cardTemplate = "partials/article-card"
    /// The ways back to the site root: from `index.html`, and from `<section>/<name>/index.html`.
    static let roots = ["", "../../"]

    let content: Content
    let model: PageModel
    let tags: [Tag]
    let jobs: [Job]

    init(content: Content, model: PageModel, templates: TemplateSet) {
        self.content = content
        var model = model
        let plain = model
        for root in Self.roots {
            var tree = TemplateTree()
            for name in templates.names {
                tree.insert(LazyText { templates.render(name, ["site": plain.site(root: root)]) }, at: name)
            }
            model.cachedPartials[root] = tree.root
        }
        if templates.has(Self.cardTemplate) {
            for root in Self.roots {
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
        jobs = content.codes.filter(\.generatesPage).map(Job.errorPage)
            + [.index, .styles, .sitemap]
            + content.codes.map(Job.code)
            + content.articles.indices.map(Job.article)
            + tags.indices.map(Job.tag)
            + templates.names.filter { $0.hasPrefix("snippets/") }.map(Job.snippet)
    }

    func path(of job: Job) -> String {
        switch job {
        case .errorPage(let code): "errors/\(code.status).html"
        case .index: "index.html"
        case .code(let code): code.sitePath + "index.html"
        case .article(let index): content.articles[index].sitePath + "index.html"
        case .tag(let index): "tags/\(Slug.make(tags[index].name))/index.html"
        case .styles: "style.css"
        case .sitemap: "sitemap.xml"
        case .snippet(let name): name
        }
    }

    func render(_ job: Job, with templates: TemplateSet) -> String {
        switch job {
        case .errorPage(let code):
            templates.render("error", model.errorPage(code))
        case .index:
            templates.render("index", model.indexPage(tags: tags.map { ($0.name, $0.articles.count) }))
        case .code(let code):
            templates.render("code", model.codePage(code))
        case .article(let index):
            templates.render("article", model.articlePage(at: index))
        case .tag(let index):
            templates.render("tag", model.tagPage(name: tags[index].name, articles: tags[index].articles))
        case .styles:
            templates.render("style.css", ["site": model.site(root: "")])
        case .snippet(let name):
            templates.render(name, model.snippet())
        case .sitemap:
            Sitemap(baseURL: content.site.baseURL, paths: [""] + content.codes.map(\.sitePath) + content.articles.map(\.sitePath)).xml
        }
    }
}
