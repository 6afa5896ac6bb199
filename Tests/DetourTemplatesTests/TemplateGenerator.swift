import DetourTestSupport

/// Random Mustache templates from a seed, built from the pieces where renderers
/// disagree: line starts, blank and CRLF lines, standalone and inline tags, nesting.
struct TemplateGenerator {
    private var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(state: seed) }

    private mutating func next() -> UInt64 { random.next() }

    private mutating func pick<T>(_ items: [T]) -> T { items[Int(next() % UInt64(items.count))] }

    private static let texts = ["a", "b c", " ", "  ", "\t", "\n", "\n", "\r\n", "x{y", "}", "<&>\"'", "é"]
    /// Names a variable may show: scalars only (swift-mustache prints lists and objects as Swift
    /// describes them, which nothing should rely on).
    private static let scalars = [
        "s1", "s2", "n", "zero", "b", "f", "missing", "blank", "obj.s1", "obj.inner.x", "obj.missing", ".s1", "uppercased(s1)", "plusone(n)",
        "count(list)", "empty(s1)", "index()", "first()", "odd()", "count(glist)", "count(gempty)", "fobj.s1", "fobj.inner.x", "fobj.missing",
    ]
    private static let sections = [
        "list", "empty", "b", "f", "missing", "obj", "obj.inner", "s1", "n", "zero", "empty(list)", "empty(empty)", "first()", "last()", "even()", "strs",
        "blank", "glist", "gempty", "empty(glist)", "empty(gempty)", "reversed(glist)", "first(glist)", "last(glist)", "fobj", "fobj.inner",
    ]

    /// A template that includes no partial, for the partials themselves.
    mutating func partial() -> String {
        var text = ""
        repeat { text = template(depth: 1) } while text.contains("{{>")
        return text
    }

    mutating func template(depth: Int) -> String {
        var text = ""
        for _ in 0..<(1 + Int(next() % 6)) {
            text += piece(depth: depth)
        }
        return text
    }

    private mutating func piece(depth: Int) -> String {
        switch next() % 12 {
        case 0, 1, 2: return pick(Self.texts)
        case 3: return "{{\(pick(Self.scalars))}}"
        case 4:
            let name = pick(Self.scalars)
            return pick(["{{{\(name)}}}", "{{&\(name)}}"])
        case 5, 6:
            guard depth < 3 else { return "{{s1}}" }
            let name = pick(Self.sections)
            let open = pick(["#", "^"])
            return pick(["", "  ", "\n", "\n  "]) + "{{\(open)\(name)}}" + pick(["", "\n"]) + template(depth: depth + 1) + pick(["", "\n", "\n "])
                + "{{/\(name)}}" + pick(["", "\n", " "])
        case 7: return pick(["", "  ", "\n", "\n\t"]) + "{{! note }}" + pick(["", "\n"])
        case 8: return pick(["", "  ", "\n", "\n  ", "\n\t"]) + "{{> \(pick(["p1", "nested", "nothing", "generated"]))}}" + pick(["", "\n", " x"])
        case 9: return pick(["", "\n"]) + "{{%CONTENT_TYPE:\(pick(["TEXT", "HTML"]))}}" + pick(["", "\n"])
        case 10: return "{{#strs}}{{.}}{{^last()}},{{/last()}}{{/strs}}"
        default: return "{{s2}}"
        }
    }
}
