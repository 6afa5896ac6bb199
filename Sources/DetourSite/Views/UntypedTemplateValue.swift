import DetourTemplates

/// The snippets' model, built as plain dictionaries and lists of text, numbers and flags.
struct UntypedTemplateValue: TemplateValue {
    let value: Any

    var templateData: TemplateData { Self.data(value) ?? .object([:]) }

    private static func data(_ value: Any) -> TemplateData? {
        switch value {
        case let typed as any TemplateValue: typed.templateData
        case let fields as [String: Any]: .object(fields.compactMapValues(data))
        case let items as [Any]: .list(items.compactMap(data))
        default: nil
        }
    }
}
