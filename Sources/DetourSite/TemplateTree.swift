/// Values filed under template names split at `/` and `.`, so Mustache's dotted lookup reaches
/// them: `partials/header` is `partials.header`. Where a name is both a value and a folder
/// (`style` and `style.css`), the folder wins.
struct TemplateTree {
    private(set) var root: [String: any Sendable] = [:]

    mutating func insert(_ value: any Sendable, at name: String) {
        let parts = name.split(whereSeparator: { $0 == "/" || $0 == "." }).map(String.init)
        guard !parts.isEmpty else { return }
        Self.insert(value, parts: parts[...], into: &root)
    }

    private static func insert(_ value: any Sendable, parts: ArraySlice<String>, into node: inout [String: any Sendable]) {
        guard let first = parts.first else { return }
        if parts.count == 1 {
            if node[first] == nil { node[first] = value }
            return
        }
        var child = node[first] as? [String: any Sendable] ?? [:]
        insert(value, parts: parts.dropFirst(), into: &child)
        node[first] = child
    }
}

extension TemplateTree: TemplateValue {
    var templateValue: Any { root }
}
