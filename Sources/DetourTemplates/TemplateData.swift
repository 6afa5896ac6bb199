/// A value a compiled template reads: the typed form of Mustache's context, so a lookup is a
/// dictionary read and a switch, never a dynamic cast. An absent key is simply not in its
/// object, which is how `{{#key}}` tests for presence.
public enum TemplateData: Sendable {
    case text(String)
    case number(Int)
    case flag(Bool)
    case list([TemplateData])
    case object([String: TemplateData])
    /// Text made the first time a template shows it (a card, a cached partial).
    case deferred(any DeferredText)
}

/// Text worked out on first use and then shared by every page that shows it.
public protocol DeferredText: AnyObject, Sendable {
    var text: String { get }
}
