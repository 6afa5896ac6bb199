import Mustache

/// A value a template reads. Page models are typed; this is the one place they become the
/// plain dictionaries, lists and scalars swift-mustache reads without reflection. An absent
/// optional leaves its key out, so `{{#key}}` tests for presence; lists are always present
/// (possibly empty), so `{{^empty(list)}}` works.
protocol TemplateValue {
    var templateValue: Any { get }
}

/// The fields of one template dictionary, absent values left out.
struct TemplateFields {
    private(set) var dictionary: [String: Any]

    init(_ fields: KeyValuePairs<String, (any TemplateValue)?>) {
        dictionary = Dictionary(minimumCapacity: fields.count)
        for (key, value) in fields { if let value { dictionary[key] = value.templateValue } }
    }

    /// These fields with `other`'s added; a key both have keeps this one's value.
    func adding(_ other: TemplateFields) -> TemplateFields {
        var fields = self
        fields.dictionary.merge(other.dictionary) { mine, _ in mine }
        return fields
    }
}

extension TemplateFields: TemplateValue {
    var templateValue: Any { dictionary }
}

extension String: TemplateValue {
    var templateValue: Any { self }
}

extension Int: TemplateValue {
    var templateValue: Any { self }
}

extension Bool: TemplateValue {
    var templateValue: Any { self }
}

extension Array: TemplateValue where Element: TemplateValue {
    var templateValue: Any { map(\.templateValue) }
}

/// UI strings, path tables and the snippets' model go to templates as they are.
extension Dictionary: TemplateValue where Key == String {
    var templateValue: Any { self }
}

/// Text rendered once and shared (cards, cached partials) is read where it is used.
extension LazyText: TemplateValue {
    var templateValue: Any { self }
}
