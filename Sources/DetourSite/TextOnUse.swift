import DetourTemplates
import Mustache

/// Text made each time a template shows it, and not kept: an article's card, which lists
/// show about once per language and root, so that keeping every card (five languages of a
/// site of ten thousand articles: fifty megabytes) would save little work.
final class TextOnUse: DeferredText, MustacheCustomRenderable, Sendable {
    private let make: @Sendable () -> String

    init(_ make: @escaping @Sendable () -> String) {
        self.make = make
    }

    var text: String { make() }

    /// What swift-mustache shows, for a theme it renders.
    var renderText: String { text }
    var isNull: Bool { false }
}

extension TextOnUse: TemplateValue {
    var templateData: TemplateData { .deferred(self) }
}
