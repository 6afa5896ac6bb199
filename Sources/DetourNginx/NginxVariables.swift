/// nginx's variable references in a directive's value: `$name` and `${name}`.
enum NginxVariables {
    /// One `$name` or `${name}` in a value: the bytes it spans, and its name; nil for a `$` that
    /// names nothing nginx would accept (`$/`, an unclosed `${`).
    private struct Reference {
        var span: Range<Int>
        var name: String?
    }

    private static func references(in bytes: [UInt8]) -> [Reference] {
        var found: [Reference] = []
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "$"), index + 1 < bytes.count else {
                index += 1
                continue
            }
            let braced = bytes[index + 1] == UInt8(ascii: "{")
            var end = index + (braced ? 2 : 1)
            let start = end
            while end < bytes.count, isNameByte(bytes[end]) { end += 1 }
            let closed = !braced || (end < bytes.count && bytes[end] == UInt8(ascii: "}"))
            let name = end > start && closed ? String(decoding: bytes[start..<end], as: UTF8.self) : nil
            let next = braced && closed ? end + 1 : end
            found.append(Reference(span: index..<next, name: name))
            index = max(next, index + 1)
        }
        return found
    }

    /// `text` with every variable replaced from `values`; nil when it names a variable not
    /// among them, whose value only a request would tell.
    static func expand(_ text: String, _ values: [String: String]) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.contains(UInt8(ascii: "$")) else { return text }
        var out: [UInt8] = []
        var copied = 0
        for reference in references(in: bytes) {
            guard let name = reference.name, let value = values[name] else { return nil }
            out += bytes[copied..<reference.span.lowerBound]
            out += value.utf8
            copied = reference.span.upperBound
        }
        out += bytes[copied...]
        return String(decoding: out, as: UTF8.self)
    }

    /// The names of the variables `text` refers to, in order, each once.
    static func names(in text: String) -> [String] {
        var names: [String] = []
        for name in references(in: Array(text.utf8)).compactMap(\.name) where !names.contains(name) {
            names.append(name)
        }
        return names
    }

    /// Variables a `map` block at http level defines whose every value is literal text, with
    /// those values (the default first: "" when the map has none). A map with a variable in any
    /// value is left out: its values only a request would tell.
    static func literalMaps(in http: NginxDirective) -> [String: [String]] {
        var maps: [String: [String]] = [:]
        for map in http.children where map.kind == .map && map.isBlock && map.argumentCount == 2 {
            guard let variable = map.value(at: 1), variable.hasPrefix("$") else { continue }
            var defaultValue = ""
            var values: [String] = []
            var literal = true
            for entry in map.children where entry.argumentCount == 1 {
                guard let value = entry.lastValue, !value.utf8.contains(UInt8(ascii: "$")) else {
                    literal = false
                    break
                }
                if entry.name == "default" { defaultValue = value } else if !values.contains(value) { values.append(value) }
            }
            guard literal else { continue }
            maps[String(variable.dropFirst())] = [defaultValue] + values.filter { $0 != defaultValue }
        }
        return maps
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
    }
}
