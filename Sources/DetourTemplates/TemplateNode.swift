/// One piece of a compiled template.
indirect enum TemplateNode: Sendable {
    case text(String)
    /// `{{name}}` (escaped for the content type in force) or `{{{name}}}` / `{{&name}}`.
    case variable(TemplateName, escaped: Bool)
    /// `{{#name}}…{{/name}}` or, inverted, `{{^name}}…{{/name}}`.
    case section(TemplateName, [TemplateNode], inverted: Bool)
    /// `{{> name}}`; `indentation` is set when the tag stands alone on its line.
    case partial(String, indentation: String?)
    /// `{{%CONTENT_TYPE:…}}`: how later variables of this template are escaped.
    case contentType(TemplateContentType)
}

/// A tag's name as Mustache resolves it: `.`, a dotted path looked up through the context
/// stack (or only in the innermost object when it starts with a dot), or the position in the
/// enclosing list (`{{index()}}`), with transforms applied innermost first.
struct TemplateName: Sendable, Equatable {
    enum Root: Sendable, Equatable {
        /// `.`: the innermost object.
        case current
        /// `index()`, `first()`…: the list position.
        case position
        /// A path found through the stack.
        case stack([String])
        /// `.a.b`: a path from the innermost object only.
        case innermost([String])
    }
    var root: Root
    /// In the order they apply: `first(reversed(list))` is `["reversed", "first"]`.
    var transforms: [String]

    init(_ name: String, transforms written: [String]) {
        transforms = written.reversed()
        let parts = name.split(separator: ".").map(String.init)
        if name == "." {
            root = .current
        } else if name.isEmpty, !written.isEmpty {
            root = .position
        } else if name.first == "." {
            root = .innermost(parts)
        } else {
            root = .stack(parts)
        }
    }
}
