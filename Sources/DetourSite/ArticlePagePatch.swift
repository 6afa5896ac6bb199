import DetourContent

/// An article's page brought up to date after its body or headings changed, without the rest
/// of the site (`ArticleRebuild`). When only the body's HTML changed, it is swapped where the
/// page has it once. Otherwise the article template is rendered with what the article alone
/// gives (body, headings, log lines, confirming commands) before and after, and the part that
/// differs is swapped in the page as the last build wrote it. Nil, and the build runs in full,
/// unless the swap is certain:
/// - the template is rendered with the fields only the whole site knows (title, section,
///   sidebar, pager, notice) left out, then filled with placeholders: the part that differs
///   must be the same, so no section on those fields shows or hides it;
/// - each field that changed changes the rendering alone, so none is hidden by a field left out;
/// - the old part, with as much of the unchanged rendering around it as it takes, is in the
///   page once.
struct ArticlePagePatch {
    /// What an article's page shows of the article alone.
    struct Own: Equatable {
        var html: String
        var headings: [ArticlePageView.Heading]
        var logPatterns: [String]
        var confirmations: [ArticlePageView.Confirmation]

        init(_ article: Article, html: String) {
            self.html = html
            headings = ArticlePageView.headings(of: article)
            logPatterns = article.logPatterns.map(\.value)
            confirmations = ArticlePageView.confirmations(of: article)
        }
    }

    /// The theme, read only when more than the body's HTML changed (it takes longer than the
    /// rest of a text edit's rebuild).
    let templates: () -> TemplateSet?
    /// The UI strings of the page's language (`PageModel.pageStrings`).
    let strings: [String: String]
    let pageLanguage: String
    /// The language the body is written in.
    let bodyLanguage: String

    /// `page` as it shows `new` where it showed `old`.
    func patch(_ page: String, from old: Own, to new: Own) -> String? {
        guard old != new else { return page }
        var htmlChanged = old
        htmlChanged.html = new.html
        if htmlChanged == new { return page.replacingOnce(old.html, with: new.html) }
        guard let templates = templates() else { return nil }
        // Each changed field, changed alone, shows.
        var (htmlAlone, headingsAlone) = (old, old)
        (htmlAlone.html, headingsAlone.headings) = (new.html, new.headings)
        for alone in [htmlAlone, headingsAlone, new] where alone != old {
            guard render(old, filled: false, templates) != render(alone, filled: false, templates) else { return nil }
        }
        let renders = [false, true].map { (old: render(old, filled: $0, templates), new: render(new, filled: $0, templates)) }
        let parts = renders.map { Self.differingPart($0.old, $0.new) }
        guard renders[0].old[parts[0].old] == renders[1].old[parts[1].old], renders[0].new[parts[0].new] == renders[1].new[parts[1].new] else {
            return nil
        }
        let text = Array(page.utf8)
        for (render, part) in zip(renders, parts) {
            if let swapped = Self.swap(part, of: render, in: text) { return String(decoding: swapped, as: UTF8.self) }
        }
        return nil
    }

    /// The article template's rendering of `own`, the rest left out or filled with placeholders.
    private func render(_ own: Own, filled: Bool, _ templates: TemplateSet) -> [UInt8] {
        let placeholder = filled ? "\u{2063}" : ""
        let link = ArticleLink(title: placeholder, url: placeholder)
        let summary = ArticleSummary(
            title: placeholder, summary: placeholder, url: placeholder, audience: placeholder,
            codes: filled ? [ArticleSummary.CodeLink(status: 599, url: placeholder, title: placeholder)] : [],
            tags: filled ? [TagLink(name: placeholder, url: placeholder, count: 1)] : [], updated: filled ? placeholder : nil, card: nil,
            t: strings.templateData)
        var view = ArticlePageView(
            summary: summary, html: own.html, language: bodyLanguage, headings: own.headings, logPatterns: own.logPatterns, confirmations: own.confirmations)
        if filled {
            (view.section, view.sectionArticles, view.sectionURL, view.sectionCount) = (placeholder, [link], placeholder, 2)
            (view.previous, view.next, view.pager, view.editURL) = (link, link, true, placeholder)
        }
        let header = PageHeader(title: placeholder, language: pageLanguage, notTranslated: filled ? placeholder : nil)
        let fields = TemplateFields().with("page", header).with("t", strings).with("article", view)
        return Array(templates.render("article", fields).utf8)
    }

    /// Where two renderings differ: the part of each between their common start and end.
    private static func differingPart(_ old: [UInt8], _ new: [UInt8]) -> (old: Range<Int>, new: Range<Int>) {
        var start = 0
        while start < old.count, start < new.count, old[start] == new[start] { start += 1 }
        var end = 0
        while end < old.count - start, end < new.count - start, old[old.count - 1 - end] == new[new.count - 1 - end] { end += 1 }
        return (start..<old.count - end, start..<new.count - end)
    }

    /// `page` with the old part of `render` swapped for the new, the part widened into the
    /// rendering around it until it is in the page once; nil when it is not there, or always
    /// more than once.
    private static func swap(_ part: (old: Range<Int>, new: Range<Int>), of render: (old: [UInt8], new: [UInt8]), in page: [UInt8]) -> [UInt8]? {
        let (before, after) = (part.old.lowerBound, render.old.count - part.old.upperBound)
        var (left, right) = part.old.isEmpty ? (min(before, 16), min(after, 16)) : (0, 0)
        while true {
            let needle = render.old[(part.old.lowerBound - left)..<(part.old.upperBound + right)]
            let found = page.offsets(of: needle, atMost: 2)
            if found.count == 1 {
                let replacement = render.new[(part.new.lowerBound - left)..<(part.new.upperBound + right)]
                return Array(page[..<found[0]] + replacement + page[(found[0] + needle.count)...])
            }
            guard found.count > 1, left < before || right < after else { return nil }
            (left, right) = (min(before, 2 * left + 16), min(after, 2 * right + 16))
        }
    }
}

extension String {
    /// This text with `old` swapped for `new`, when it is there once.
    func replacingOnce(_ old: String, with new: String) -> String? {
        let (text, needle) = (Array(utf8), Array(old.utf8))
        let found = text.offsets(of: needle[...], atMost: 2)
        guard found.count == 1 else { return nil }
        return String(decoding: text[..<found[0]] + Array(new.utf8) + text[(found[0] + needle.count)...], as: UTF8.self)
    }
}

extension Array where Element == UInt8 {
    /// Where `needle` starts in these bytes, the first `atMost` places.
    func offsets(of needle: ArraySlice<UInt8>, atMost limit: Int) -> [Int] {
        guard let first = needle.first else { return [] }
        var found: [Int] = []
        var start = 0
        while found.count < limit, start + needle.count <= count, let at = self[start...].firstIndex(of: first) {
            guard at + needle.count <= count else { break }
            if self[at..<at + needle.count].elementsEqual(needle) { found.append(at) }
            start = at + 1
        }
        return found
    }
}
