import Yams

/// Text written into a YAML file as one double-quoted scalar on one line, escaped by libyaml's
/// emitter (through Yams) as every YAML reader reads it back: quotes, backslashes, line breaks
/// and characters YAML does not allow in a document. For a page held in a Kubernetes manifest.
public enum YAMLScalar {
    public static func doubleQuoted(_ text: String) -> String {
        let node = Node.scalar(.init(text, Tag(.str), .doubleQuoted))
        // A width of -1: never folded, so the scalar stays on the line the template gives it.
        let emitted = (try? serialize(node: node, width: -1, allowUnicode: true)) ?? "\"\""
        return emitted.hasSuffix("\n") ? String(emitted.dropLast()) : emitted
    }
}
