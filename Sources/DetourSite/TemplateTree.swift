import DetourTemplates

/// Values filed under template names split at `/` and `.`, so Mustache's dotted lookup reaches
/// them: `partials/header` is `partials.header`. Where a name is both a value and a folder
/// (`style` and `style.css`), the folder wins.
struct TemplateTree {
    private(set) var root: [String: TemplateData] = [:]

    mutating func insert(_ value: TemplateData, at name: String) {
        let parts = name.split(whereSeparator: { $0 == "/" || $0 == "." }).map(String.init)
        guard !parts.isEmpty else { return }
        Self.insert(value, parts: parts[...], into: &root)
    }

    private static func insert(_ value: TemplateData, parts: ArraySlice<String>, into node: inout [String: TemplateData]) {
        guard let first = parts.first else { return }
        if parts.count == 1 {
            if node[first] == nil { node[first] = value }
            return
        }
        var child: [String: TemplateData] = [:]
        if case .object(let fields) = node[first] { child = fields }
        insert(value, parts: parts.dropFirst(), into: &child)
        node[first] = .object(child)
    }
}

extension TemplateTree: TemplateValue {
    var templateData: TemplateData { .object(root) }
}
