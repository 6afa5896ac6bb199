/// How a site's Markdown is read: the choices `site.yml` makes about it. Both are off by default,
/// as on GitHub, so text pasted from a repository renders as it did there.
public struct MarkdownOptions: Sendable, Hashable {
    /// Lets raw HTML through (`raw_html`), with GFM's tagfilter applied to it.
    public var rawHTML: Bool
    /// Curly quotes, dashes and ellipses made from straight ones (`smart_punctuation`).
    public var smartPunctuation: Bool

    public init(rawHTML: Bool = false, smartPunctuation: Bool = false) {
        self.rawHTML = rawHTML
        self.smartPunctuation = smartPunctuation
    }
}
