/// Renders compiled templates into one growing string, with swift-mustache's semantics: a list
/// repeats its section per item, `true` shows it, `false`, an empty list and an absent key hide
/// it, and any other value shows it once as the innermost object. Names are looked up from the
/// innermost object outwards; a dotted name is followed from wherever its first part is found.
struct TemplateRenderer {
    let templates: [String: [TemplateNode]]

    /// Where in a list the section being rendered is, for `{{index()}}`, `{{first()}}`…
    struct Position {
        var index: Int
        var isLast: Bool
    }

    /// What a template renders with besides the stack of objects.
    struct Frame {
        var position: Position?
        /// Set inside a standalone partial: every line it renders starts with it.
        var indentation: String?
        var contentType = TemplateContentType.html
    }

    func render(_ nodes: [TemplateNode], _ stack: inout [TemplateData], _ frame: Frame, into output: inout String) {
        guard let indentation = frame.indentation, !indentation.isEmpty else {
            var frame = frame
            for node in nodes { render(node, &stack, &frame, into: &output) }
            return
        }
        // Indented: each node's text starts a line with the indentation when the text before
        // it (in this template) ended one with "\n": as in swift-mustache, not after "\r\n".
        var frame = frame
        var rendered = ""
        for node in nodes {
            var piece = ""
            render(node, &stack, &frame, into: &piece)
            if !piece.isEmpty, rendered.last == "\n" { rendered += indentation }
            rendered += piece
        }
        output += rendered
    }

    private func render(_ node: TemplateNode, _ stack: inout [TemplateData], _ frame: inout Frame, into output: inout String) {
        switch node {
        case .text(let text):
            output += text
        case .variable(let name, let escaped):
            guard let value = resolve(name, stack, frame.position) else { return }
            let text: String
            switch value {
            case .text(let string): text = string
            case .number(let number): text = String(number)
            case .flag(let flag): text = flag ? "true" : "false"
            case .deferred(let deferred): text = deferred.text
            // swift-mustache prints a list or object as Swift describes it; nothing is clearer.
            case .list, .generated, .object, .fields: return
            }
            if escaped { frame.contentType.append(text, to: &output) } else { output += text }
        case .section(let name, let body, let inverted):
            let value = resolve(name, stack, frame.position)
            if inverted {
                renderInverted(body, value, &stack, frame, into: &output)
            } else {
                renderSection(body, value, &stack, frame, into: &output)
            }
        case .partial(let name, let indentation):
            guard let partial = templates[name] else { return }
            let inner = Frame(position: nil, indentation: indentation.map { (frame.indentation ?? "") + $0 } ?? frame.indentation)
            render(partial, &stack, inner, into: &output)
        case .contentType(let type):
            frame.contentType = type
        }
    }

    private func renderSection(_ body: [TemplateNode], _ value: TemplateData?, _ stack: inout [TemplateData], _ frame: Frame, into output: inout String) {
        switch value {
        case nil, .flag(false):
            return
        case .flag(true):
            render(body, &stack, frame, into: &output)
        case .list(let items):
            renderItems(body, count: items.count, { items[$0] }, &stack, frame, into: &output)
        case .generated(let list):
            renderItems(body, count: list.count, { list[$0] }, &stack, frame, into: &output)
        case .some(let value):
            var inner = frame
            inner.position = nil
            stack.append(value)
            render(body, &stack, inner, into: &output)
            stack.removeLast()
        }
    }

    /// The section once per item, each item on the stack while its copy renders.
    private func renderItems(
        _ body: [TemplateNode], count: Int, _ item: (Int) -> TemplateData, _ stack: inout [TemplateData], _ frame: Frame, into output: inout String
    ) {
        var inner = frame
        for index in 0..<count {
            inner.position = Position(index: index, isLast: index == count - 1)
            stack.append(item(index))
            render(body, &stack, inner, into: &output)
            stack.removeLast()
        }
    }

    private func renderInverted(_ body: [TemplateNode], _ value: TemplateData?, _ stack: inout [TemplateData], _ frame: Frame, into output: inout String) {
        switch value {
        case nil, .flag(false):
            render(body, &stack, frame, into: &output)
        case .list(let items) where items.isEmpty:
            renderInvertedOnEmpty(body, .list(items), &stack, frame, into: &output)
        case .generated(let list) where list.isEmpty:
            renderInvertedOnEmpty(body, .generated(list), &stack, frame, into: &output)
        default:
            return
        }
    }

    /// An inverted section on an empty list renders once, with the list as its object.
    private func renderInvertedOnEmpty(_ body: [TemplateNode], _ empty: TemplateData, _ stack: inout [TemplateData], _ frame: Frame, into output: inout String)
    {
        var inner = frame
        inner.position = nil
        stack.append(empty)
        render(body, &stack, inner, into: &output)
        stack.removeLast()
    }

    private func resolve(_ name: TemplateName, _ stack: [TemplateData], _ position: Position?) -> TemplateData? {
        var value: TemplateData?
        var transforms = name.transforms[...]
        switch name.root {
        case .current:
            value = stack.last
        case .position:
            guard let position, let first = transforms.popFirst() else { return nil }
            value = TemplateTransform.apply(first, to: position)
        case .innermost(let path):
            value = stack.last.flatMap { Self.follow(path[...], from: $0) }
        case .stack(let path):
            guard let first = path.first else {
                value = stack.last
                break
            }
            for object in stack.reversed() {
                guard let child = object.child(first) else { continue }
                value = Self.follow(path.dropFirst(), from: child)
                break
            }
        }
        for transform in transforms {
            guard let current = value else { return nil }
            value = TemplateTransform.apply(transform, to: current)
        }
        return value
    }

    private static func follow(_ path: ArraySlice<String>, from start: TemplateData) -> TemplateData? {
        var value = start
        for part in path {
            guard let child = value.child(part) else { return nil }
            value = child
        }
        return value
    }
}

extension TemplateData {
    func child(_ name: String) -> TemplateData? {
        switch self {
        case .object(let fields): fields[name]
        case .fields(let fields): fields[name]
        default: nil
        }
    }
}
