@testable import DetourTemplates

/// One context, typed and as swift-mustache reads it: text with every character HTML escapes,
/// numbers, both flags, a list of objects that shadow and miss the outer keys, an empty list,
/// a list of text and nested objects, some as dictionaries and some as field lists; the two
/// lists again as generated lists (items made as read).
enum OracleContext {
    static let special = "<a href=\"x\">Tom & Jerry's</a> é"

    static let data: TemplateData = .object([
        "s1": .text("plain"),
        "s2": .text(special),
        "n": .number(41),
        "zero": .number(0),
        "b": .flag(true),
        "f": .flag(false),
        "list": .list(listItems),
        "empty": .list([]),
        "glist": .generated(GeneratedList(count: 3) { listItems[$0] }),
        "gempty": .generated(GeneratedList(count: 0) { _ in .text("never read") }),
        "strs": .list([.text("x"), .text("<y>"), .text("")]),
        "obj": .object(["s1": .text("in obj"), "inner": fields(["x": .text("deep")])]),
        "fobj": fields(["s1": .text("in field list"), "n": .number(7), "inner": .object(["x": .text("deeper")])]),
        "blank": .text(""),
    ])

    private static let listItems: [TemplateData] = [
        fields(["s1": .text("one"), "n": .number(1)]),
        .object(["s1": .text("two & <b>"), "b": .flag(false)]),
        .object(["n": .number(3)]),
    ]

    private static func fields(_ pairs: KeyValuePairs<String, TemplateData>) -> TemplateData {
        var list = TemplateFieldList()
        for (key, value) in pairs { list.append(key, value) }
        return .fields(list)
    }

    static var any: Any { plain(data) }

    private static func plain(_ data: TemplateData) -> Any {
        switch data {
        case .text(let text): text
        case .number(let number): number
        case .flag(let flag): flag
        case .list(let items): items.map(plain)
        case .generated(let list): list.items.map(plain)
        case .object(let fields): fields.mapValues(plain)
        case .fields(let fields): fields.dictionary.mapValues(plain)
        case .deferred(let deferred): deferred.text
        }
    }
}
