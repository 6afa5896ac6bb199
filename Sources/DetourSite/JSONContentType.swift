import DetourSupport
import Mustache

/// `{{%CONTENT_TYPE:JSON}}`: `{{value}}` is escaped for a JSON string, so a template writes
/// `"title": "{{code.title}}"` and any text stays valid JSON.
struct JSONContentType: MustacheContentType {
    func escapeText(_ text: String) -> String {
        JSONString.escape(text, .document)
    }
}
