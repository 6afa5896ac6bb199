import Mustache

/// `{{%CONTENT_TYPE:JSON}}`: `{{value}}` is escaped for a JSON string, so a template writes
/// `"title": "{{code.title}}"` and any text stays valid JSON.
struct JSONContentType: MustacheContentType {
    func escapeText(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _ where scalar.value < 0x20: escaped += "\\u" + String(scalar.value, radix: 16).leftPadded(to: 4)
            // A JSON page may be shown as HTML by a mislabelled proxy; never hand it a tag.
            case "<": escaped += "\\u003c"
            case ">": escaped += "\\u003e"
            case "&": escaped += "\\u0026"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
