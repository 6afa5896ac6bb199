import DetourTemplates

/// A value a template reads. Page models are typed; this is the one place they become the
/// `TemplateData` the compiled templates read. An absent optional leaves its key out, so
/// `{{#key}}` tests for presence; lists are always present (possibly empty), so
/// `{{^empty(list)}}` works.
protocol TemplateValue {
    var templateData: TemplateData { get }
}

/// The fields of one template object, absent values left out: `TemplateFields().with("title",
/// title).with("updated", updated)`. Each field is added by a generic call, so a page's
/// thousands of fields are each converted as their own type, with no existential box.
struct TemplateFields {
    private(set) var fields = TemplateFieldList()

    /// These fields and `value` under `key` (which they do not have), unless `value` is nil:
    /// an absent key is how `{{#key}}` tests for presence.
    consuming func with<Value: TemplateValue>(_ key: String, _ value: Value?) -> TemplateFields {
        if let value { fields.append(key, value.templateData) }
        return self
    }

    /// These fields with `other`'s added; a key both have keeps this one's value.
    func adding(_ other: TemplateFields) -> TemplateFields {
        var fields = self
        fields.fields = self.fields.adding(other.fields)
        return fields
    }
}

extension TemplateFields: TemplateValue {
    var templateData: TemplateData { .fields(fields) }
}

extension String: TemplateValue {
    var templateData: TemplateData { .text(self) }
}

extension Int: TemplateValue {
    var templateData: TemplateData { .number(self) }
}

extension Bool: TemplateValue {
    var templateData: TemplateData { .flag(self) }
}

extension Array: TemplateValue where Element: TemplateValue {
    var templateData: TemplateData { .list(map { $0.templateData }) }
}

/// UI strings and path tables go to templates as objects.
extension Dictionary: TemplateValue where Key == String, Value: TemplateValue {
    var templateData: TemplateData { .object(mapValues { $0.templateData }) }
}

extension TemplateData: TemplateValue {
    var templateData: TemplateData { self }
}

/// Text rendered once and shared (cards, cached partials) is read where it is used.
extension LazyText: TemplateValue {
    var templateData: TemplateData { .deferred(self) }
}

/// A list whose items become template data only as a template reaches each
/// (`TemplateData.generated`): the lists as long as the site (a home page's articles, a tag's,
/// a code's) would otherwise be whole before their page renders, once per page being rendered.
struct GeneratedValues<Value: TemplateValue>: TemplateValue, Sendable {
    let count: Int
    let item: @Sendable (Int) -> Value

    /// `elements`' items as `transform` makes each.
    init<Element: Sendable>(_ elements: [Element], _ transform: @escaping @Sendable (Element) -> Value) {
        count = elements.count
        item = { transform(elements[$0]) }
    }

    var templateData: TemplateData { .generated(GeneratedList(count: count) { [item] in item($0).templateData }) }
}
