import DetourDiagnostics
import DetourSupport
import Yams

/// Reads typed fields from one YAML mapping, recording a located diagnostic for every missing,
/// mistyped or unknown field instead of stopping at the first.
public struct FieldReader {
    public let path: String
    public let lineOffset: Int
    public let mapping: Node.Mapping
    public let location: SourceLocation
    /// Names this mapping accepts; anything else is reported as unknown.
    public let fields: [String]
    /// What the mapping is, for messages ("article front matter").
    public let subject: String
    public private(set) var diagnostics: [Diagnostic] = []

    /// Returns nil (and a diagnostic) when `node` is not a mapping.
    public init?(_ node: Node?, at fallback: SourceLocation, lineOffset: Int, subject: String, fields: [String], diagnostics: inout [Diagnostic]) {
        self.path = fallback.path
        self.lineOffset = lineOffset
        self.subject = subject
        self.fields = fields
        guard let node else {
            diagnostics.append(
                .error(
                    "content.missing-field", "\(subject) is empty; expected fields \(fields.prefix(3).map { "'\($0)'" }.joined(separator: ", "))…", at: fallback
                ))
            return nil
        }
        let location = Self.location(of: node, path: fallback.path, lineOffset: lineOffset) ?? fallback
        guard let mapping = node.mapping else {
            diagnostics.append(.error("content.type-mismatch", "\(subject) must be a mapping of 'field: value' lines", at: location))
            return nil
        }
        self.mapping = mapping
        self.location = location
    }

    /// Parses `yaml` and reads its top-level mapping; nil (with diagnostics) when the YAML is
    /// invalid or not a mapping. `start` is where the YAML text begins in its file.
    public static func parse(_ yaml: String, at start: SourceLocation, subject: String, fields: [String], diagnostics: inout [Diagnostic]) -> FieldReader? {
        let lineOffset = start.line - 1
        switch YAMLDocument.compose(yaml, path: start.path, lineOffset: lineOffset) {
        case .success(let node):
            return FieldReader(node, at: start, lineOffset: lineOffset, subject: subject, fields: fields, diagnostics: &diagnostics)
        case .failure(let diagnostic):
            diagnostics.append(diagnostic)
            return nil
        }
    }

    private init(parent: FieldReader, mapping: Node.Mapping, location: SourceLocation, subject: String, fields: [String]) {
        self.path = parent.path
        self.lineOffset = parent.lineOffset
        self.mapping = mapping
        self.location = location
        self.subject = subject
        self.fields = fields
    }

    public static func location(of node: Node, path: String, lineOffset: Int) -> SourceLocation? {
        node.mark.map { SourceLocation(path: path, line: $0.line + lineOffset, column: $0.column) }
    }

    public func location(of node: Node) -> SourceLocation {
        Self.location(of: node, path: path, lineOffset: lineOffset) ?? location
    }

    // MARK: Typed access

    /// The value node for `key`, or nil when absent or written as null; reports a missing required field.
    private mutating func value(_ key: String, required: Bool) -> Node? {
        let node = mapping[key]
        if let node, !isNull(node) { return node }
        if required {
            let message =
                node == nil
                ? "\(subject) is missing required field '\(key)'"
                : "required field '\(key)' must not be empty"
            diagnostics.append(.error("content.missing-field", message, at: node.map(location(of:)) ?? location))
        }
        return nil
    }

    private func isNull(_ node: Node) -> Bool {
        guard let scalar = node.scalar else { return false }
        return scalar.style == .plain && ["", "~", "null", "Null", "NULL"].contains(scalar.string)
    }

    private mutating func mismatch(_ key: String, _ expected: String, _ node: Node) {
        diagnostics.append(.error("content.type-mismatch", "'\(key)' must be \(expected)", at: location(of: node)))
    }

    public mutating func string(_ key: String, required: Bool = false) -> Located<String>? {
        guard let node = value(key, required: required) else { return nil }
        guard let scalar = node.scalar else {
            mismatch(key, "text", node)
            return nil
        }
        let text = scalar.string.trimmingWhitespace()
        if text.isEmpty && required {
            diagnostics.append(.error("content.missing-field", "required field '\(key)' must not be empty", at: location(of: node)))
            return nil
        }
        return Located(text, at: location(of: node))
    }

    /// A block of text kept as written (Markdown), with the line its content starts on.
    public mutating func markdown(_ key: String, required: Bool = false) -> Located<String>? {
        guard let node = value(key, required: required) else { return nil }
        guard let scalar = node.scalar else {
            mismatch(key, "Markdown text", node)
            return nil
        }
        var at = location(of: node)
        // Block scalars (`|`, `>`) start their content on the next line.
        if scalar.style == .literal || scalar.style == .folded { at = at.shifted(lines: 1, column: 1) }
        return Located(scalar.string, at: at)
    }

    public mutating func int(_ key: String, required: Bool = false, in range: ClosedRange<Int>? = nil) -> Located<Int>? {
        guard let node = value(key, required: required) else { return nil }
        guard let scalar = node.scalar, let number = Int(scalar.string) else {
            mismatch(key, "a whole number", node)
            return nil
        }
        if let range, !range.contains(number) {
            diagnostics.append(
                .error("content.out-of-range", "'\(key)' must be between \(range.lowerBound) and \(range.upperBound), not \(number)", at: location(of: node)))
            return nil
        }
        return Located(number, at: location(of: node))
    }

    public mutating func bool(_ key: String) -> Located<Bool>? {
        guard let node = value(key, required: false) else { return nil }
        guard let scalar = node.scalar, let flag = Bool(yamlScalar: scalar.string) else {
            mismatch(key, "true or false", node)
            return nil
        }
        return Located(flag, at: location(of: node))
    }

    /// A list of text; a single scalar is accepted as a one-item list, as Hugo does for tags.
    public mutating func stringList(_ key: String) -> [Located<String>] {
        guard let node = value(key, required: false) else { return [] }
        if let scalar = node.scalar { return [Located(scalar.string, at: location(of: node))] }
        guard let sequence = node.sequence else {
            mismatch(key, "a list of text", node)
            return []
        }
        var items: [Located<String>] = []
        for item in sequence {
            if let scalar = item.scalar, !isNull(item) {
                items.append(Located(scalar.string.trimmingWhitespace(), at: location(of: item)))
            } else {
                mismatch(key, "a list of text", item)
            }
        }
        return items
    }

    /// Text, or a mapping of names to text (`confirm: nginx -t`, `confirm: {nginx: nginx -t}`):
    /// each text with the name it is written under, nil in the plain form.
    public mutating func textByName(_ key: String) -> [(name: Located<String>?, text: Located<String>)] {
        guard let node = value(key, required: false) else { return [] }
        if let scalar = node.scalar { return [(nil, Located(scalar.string.trimmingWhitespace(), at: location(of: node)))] }
        guard let mapping = node.mapping else {
            mismatch(key, "text, or a mapping of names to text", node)
            return []
        }
        var found: [(name: Located<String>?, text: Located<String>)] = []
        for pair in mapping {
            guard let name = pair.key.scalar?.string, let text = pair.value.scalar, !isNull(pair.value) else {
                mismatch(key, "text, or a mapping of names to text", pair.value)
                continue
            }
            found.append((Located(name, at: location(of: pair.key)), Located(text.string.trimmingWhitespace(), at: location(of: pair.value))))
        }
        return found
    }

    public mutating func intList(_ key: String, in range: ClosedRange<Int>? = nil) -> [Located<Int>] {
        guard let node = value(key, required: false) else { return [] }
        let items: [Node] = node.sequence.map(Array.init) ?? [node]
        var numbers: [Located<Int>] = []
        for item in items {
            guard let scalar = item.scalar, let number = Int(scalar.string) else {
                mismatch(key, "a list of whole numbers", item)
                continue
            }
            if let range, !range.contains(number) {
                diagnostics.append(
                    .error(
                        "content.out-of-range", "'\(key)' must list numbers between \(range.lowerBound) and \(range.upperBound), not \(number)",
                        at: location(of: item)))
                continue
            }
            numbers.append(Located(number, at: location(of: item)))
        }
        return numbers
    }

    /// A nested mapping, read with its own set of fields; its findings join this reader's.
    public mutating func nested(_ key: String, subject: String, fields: [String], read: (inout FieldReader) -> Void) {
        guard let node = value(key, required: false) else { return }
        guard let mapping = node.mapping else {
            mismatch(key, "a mapping of 'field: value' lines", node)
            return
        }
        var child = FieldReader(parent: self, mapping: mapping, location: location(of: node), subject: subject, fields: fields)
        read(&child)
        child.reportUnknownFields()
        diagnostics += child.diagnostics
    }

    /// A mapping whose keys are data rather than field names (UI string keys, statuses): each
    /// key with where it is written and its value node; nil when absent or not a mapping.
    public mutating func entries(_ key: String) -> [(key: Located<String>, value: Node)]? {
        guard let node = value(key, required: false) else { return nil }
        guard let mapping = node.mapping else {
            mismatch(key, "a mapping of 'key: value' lines", node)
            return nil
        }
        return mapping.compactMap { pair in
            guard let name = pair.key.scalar?.string else { return nil }
            return (Located(name, at: location(of: pair.key)), pair.value)
        }
    }

    /// A reader for a mapping found among `entries`; its findings join this reader's.
    public mutating func reader(for node: Node, subject: String, fields: [String]) -> FieldReader? {
        var found: [Diagnostic] = []
        let child = FieldReader(node, at: location(of: node), lineOffset: lineOffset, subject: subject, fields: fields, diagnostics: &found)
        diagnostics += found
        return child
    }

    /// Takes over a nested reader's findings once it is done.
    public mutating func absorb(_ child: FieldReader) {
        diagnostics += child.diagnostics
    }

    /// Every key that is not in `fields`, with the closest known name as a suggestion.
    public mutating func reportUnknownFields() {
        for key in mapping.keys {
            guard let name = key.scalar?.string, !fields.contains(name) else { continue }
            var message = "unknown field '\(name)' in \(subject)"
            if let suggestion = Suggestion.closest(to: name, among: fields) {
                message += "; did you mean '\(suggestion)'?"
            } else {
                message += "; known fields: \(fields.joined(separator: ", "))"
            }
            diagnostics.append(.error("content.unknown-field", message, at: location(of: key)))
        }
    }
}

extension Bool {
    public init?(yamlScalar text: String) {
        switch text.lowercased() {
        case "true", "yes", "on": self = true
        case "false", "no", "off": self = false
        default: return nil
        }
    }
}

extension String {
    public func trimmingWhitespace() -> String {
        var slice = Substring(self)
        while let first = slice.first, first.isWhitespace { slice.removeFirst() }
        while let last = slice.last, last.isWhitespace { slice.removeLast() }
        return String(slice)
    }
}
