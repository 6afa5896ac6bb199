import DetourContent
import DetourDiagnostics
import DetourLayout
import DetourSupport
import Foundation
import Synchronization

/// Builds one after another into the same output, each doing only what the changes since the
/// last one need: the build side of `detour serve` (which serves, watches and reloads in
/// DetourServe). The first is a full build that keeps what it loaded. A
/// later one that only touches existing articles re-reads those files alone and rewrites their
/// pages in place (and, when what lists show of them changed, the home, code, tag and search
/// pages and the sitemap), then the search index once no save is waiting. Anything else is a
/// full build again, staged and swapped in as `detour build` does, so the served folder is
/// always a whole site.
///
/// One build at a time: what the last one kept is behind a lock, which the serve loop, running
/// builds one after another, finds taken at most while a search index refresh reads what it
/// needs or writes what it built.
public final class IncrementalBuild: Sendable {
    public struct Outcome: Sendable {
        /// Every finding that stands after this build: errors mean the site was left as it was.
        public var diagnostics: [Diagnostic]
        /// Whether the whole site was built, rather than a few pages rewritten.
        public var full: Bool
        /// Pages rewritten in place (a quick build), site-relative.
        public var rewritten: [String]
        /// Nothing the site is built from changed (only temporary files came and went).
        public var changedNothing: Bool { !full && rewritten.isEmpty && succeeded }
        public var succeeded: Bool { !diagnostics.hasErrors }
    }

    private let options: BuildOptions
    private let kept = Mutex(Kept())
    /// Counts the builds asked for, outside the lock: a search index refresh stops once a
    /// newer build is asked for, and leaves the cores to it.
    private let requested = Atomic<Int>(0)

    /// What the last builds leave for the next.
    private struct Kept: Sendable {
        var templates: TemplateSet?
        var content: Content?
        /// The error pages' advice as the last full build rendered it.
        var advice: PageModel.ErrorPageAdvice = [:]
        /// The search index's entries the search page carries, as the index stands.
        var searchIndexHeads: [String: String] = [:]
        /// A quick build rewrote pages but not yet the search index (`refreshSearchIndex`).
        var searchIndexIsStale = false
        /// The warnings of the last full build, kept while only some articles are read again.
        var standing: [Diagnostic] = []
        /// Counts the builds that changed the content, so an index built from an older one
        /// is not written over a newer site.
        var generation = 0
    }

    /// A quick build rewrote pages but not yet the search index (`refreshSearchIndex`).
    public var searchIndexIsStale: Bool { kept.withLock { $0.searchIndexIsStale } }

    public init(options: BuildOptions) {
        self.options = options
    }

    /// `changed`: absolute paths that changed since the last build, or nil for a full build.
    /// `willWrite` runs once a build has succeeded so far that it will write: a quick build
    /// once it has read its changes without an error, before it rewrites pages in place; a
    /// full one before its output replaces the last. From then on the served site is this
    /// build's.
    public func build(changed: Set<String>?, willWrite: () -> Void = {}) -> Outcome {
        requested.add(1, ordering: .relaxed)
        return kept.withLock { kept in
            if let changed, let quick = quickBuild(changed, kept: &kept, willWrite: willWrite) { return quick }
            var loaded: (TemplateSet, PageModel)?
            let report = SiteBuilder.build(options, keeping: { loaded = ($0, $1) }, willReplace: willWrite)
            if let (templates, model) = loaded {
                (kept.templates, kept.content, kept.advice, kept.searchIndexHeads) = (templates, model.content, model.errorPageAdvice, model.searchIndexHeads)
                kept.searchIndexIsStale = false
                kept.generation += 1
                kept.standing = report.diagnostics
            }
            return Outcome(diagnostics: report.diagnostics, full: true, rewritten: [])
        }
    }

    /// Writes the search index of the content as it now stands, after quick builds, which leave
    /// it for later: it takes seconds on a large site, and the edited page shows first. It is
    /// built without holding up the build of a save that comes meanwhile; such a build makes it
    /// old, and it is given up as soon as that build is asked for (the refresh after that build
    /// writes the newer one).
    public func refreshSearchIndex() {
        let asked = requested.load(ordering: .relaxed)
        let stale = kept.withLock { kept -> (content: Content, generation: Int)? in
            guard kept.searchIndexIsStale, let content = kept.content else { return nil }
            return (content, kept.generation)
        }
        guard let stale, let index = SiteBuilder.searchIndex(stale.content, until: { self.requested.load(ordering: .relaxed) != asked }) else { return }
        kept.withLock { kept in
            guard kept.searchIndexIsStale, kept.generation == stale.generation, let content = kept.content else { return }
            let output = OutputDirectory(target: options.output)
            for file in index.files { try? output.replaceInPlace(file.path, file.contents) }
            kept.searchIndexIsStale = false
            // The search page carries the entry: rewritten when it changed (more records, shards).
            guard index.heads != kept.searchIndexHeads, let templates = kept.templates else { return }
            kept.searchIndexHeads = index.heads
            let pages = PageSet(content: content, model: model(of: content, kept: kept), templates: templates)
            for case .search in pages.jobs { _ = write(.search, of: pages, with: templates, to: output) }
        }
    }

    private func quickBuild(_ changed: Set<String>, kept: inout Kept, willWrite: () -> Void) -> Outcome? {
        let folder = options.content.path + "/"
        guard let templates = kept.templates, let content = kept.content, changed.allSatisfy({ $0.hasPrefix(folder) }) else { return nil }
        // Files that came and went (sed -i's and editors' temporary files) changed nothing.
        let articles = Set(content.articles.map(\.relativePath))
        let relative = Set(
            changed.map { String($0.dropFirst(folder.count)) }.filter { path in
                articles.contains(path) || FileManager.default.fileExists(atPath: folder + path)
            })
        if relative.isEmpty { return Outcome(diagnostics: kept.standing, full: false, rewritten: []) }
        let loader = ContentLoader(root: options.content, displayRoot: options.contentDisplay, includeDrafts: options.includeDrafts, baseURL: options.baseURL)
        switch loader.reload(relative, in: content) {
        case .needsFullLoad:
            return nil
        case .failed(let diagnostics):
            return Outcome(diagnostics: diagnostics, full: false, rewritten: [])
        case .updated(let updated, let changed, let relisted, let diagnostics):
            // A tag page that would appear or go is more than rewriting pages in place.
            guard !relisted || Self.tagSlugs(updated) == Self.tagSlugs(content) else { return nil }
            let pages = PageSet(content: updated, model: model(of: updated, kept: kept), templates: templates)
            let changedFiles = Set(changed)
            // The edited articles' pages, and the lists that show them if what they show changed.
            var own: [PageSet.Job] = []
            var lists: [PageSet.Job] = []
            for job in pages.jobs {
                switch job {
                case .article(let index, _) where changedFiles.contains(updated.articles[index].relativePath): own.append(job)
                case .index, .search, .code, .tag, .sitemap, .sitemapPart: if relisted { lists.append(job) }
                default: break
                }
            }
            let output = OutputDirectory(target: options.output)
            willWrite()
            // The edited article first, then the lists, on every core.
            let written =
                own.map { write($0, of: pages, with: templates, to: output) } + lists.concurrentMap { write($0, of: pages, with: templates, to: output) }
            // A half-written site is worse than a slower build.
            guard written.allSatisfy({ $0 != nil }) else { return nil }
            let rewritten = written.compactMap { $0 }
            kept.content = updated
            kept.generation += 1
            kept.searchIndexIsStale = true
            let files = Set(relative.map { options.contentDisplay + "/" + $0 })
            kept.standing = kept.standing.filter { !files.contains($0.location.path) } + diagnostics
            return Outcome(diagnostics: kept.standing, full: false, rewritten: rewritten)
        }
    }

    /// Articles read again keep their trees; the others' bodies are read from their files.
    private func model(of content: Content, kept: Kept) -> PageModel {
        PageModel(
            content: content, errorPageAdvice: kept.advice, bodies: MarkdownBodies(content: content, contentRoot: options.content),
            searchIndexHeads: kept.searchIndexHeads, everyPage: false)
    }

    /// The page's path once written in place, or nil if it could not be.
    private func write(_ job: PageSet.Job, of pages: PageSet, with templates: TemplateSet, to output: OutputDirectory) -> String? {
        let path = pages.paths(of: job)[0]
        do {
            try output.replaceInPlace(path, pages.render(job, with: templates))
            return path
        } catch {
            return nil
        }
    }

    private static func tagSlugs(_ content: Content) -> Set<String> {
        Set(content.articles.flatMap { $0.tags.map(Slug.make) })
    }
}
