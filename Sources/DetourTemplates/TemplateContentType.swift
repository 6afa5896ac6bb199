import DetourSupport

/// How `{{value}}` is escaped, chosen by `{{%CONTENT_TYPE:…}}`; every template starts as HTML.
public enum TemplateContentType: String, Sendable, CaseIterable {
    case html = "HTML"
    case text = "TEXT"
    /// Escaped for a JSON string, so `"title": "{{title}}"` stays valid JSON for any text.
    case json = "JSON"

    func append(_ value: String, to output: inout String) {
        switch self {
        case .html: HTMLText.append(value, to: &output)
        case .text: output += value
        case .json: output += JSONString.escape(value, .document)
        }
    }
}
