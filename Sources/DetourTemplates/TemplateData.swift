/// A value a compiled template reads: the typed form of Mustache's context, so a lookup is a
/// dictionary read and a switch, never a dynamic cast. An absent key is simply not in its
/// object, which is how `{{#key}}` tests for presence.
public enum TemplateData: Sendable {
    case text(String)
    case number(Int)
    case flag(Bool)
    case list([TemplateData])
    /// A list whose items are made as a section reaches each, and let go after it: a home
    /// page lists every article, which as data at once would be tens of megabytes per page.
    case generated(GeneratedList)
    case object([String: TemplateData])
    /// An object of a few fields, as the typed views make them (`TemplateFieldList`).
    case fields(TemplateFieldList)
    /// Text made when a template shows it: once and then shared (a cached partial), or each
    /// time (a card).
    case deferred(any DeferredText)
}

/// Text worked out where a template shows it, rather than before the page is rendered.
public protocol DeferredText: AnyObject, Sendable {
    var text: String { get }
}

/// `count` items, each made by `item` when it is read.
public struct GeneratedList: Sendable {
    public let count: Int
    private let item: @Sendable (Int) -> TemplateData

    public init(count: Int, item: @escaping @Sendable (Int) -> TemplateData) {
        self.count = count
        self.item = item
    }

    public subscript(index: Int) -> TemplateData { item(index) }

    public var isEmpty: Bool { count == 0 }

    /// Every item at once, for what needs them so (swift-mustache's values, `reversed`).
    public var items: [TemplateData] { (0..<count).map(item) }
}
