/// nginx's variable references in a directive's value: `$name` and `${name}`.
enum NginxVariables {
    /// `text` with every variable replaced from `values`; nil when it names a variable not
    /// among them, whose value only a request would tell.
    static func expand(_ text: String, _ values: [String: String]) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.contains(UInt8(ascii: "$")) else { return text }
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "$"), index + 1 < bytes.count else {
                out.append(bytes[index])
                index += 1
                continue
            }
            let braced = bytes[index + 1] == UInt8(ascii: "{")
            var end = index + (braced ? 2 : 1)
            let start = end
            while end < bytes.count, isNameByte(bytes[end]) { end += 1 }
            if braced {
                guard end < bytes.count, bytes[end] == UInt8(ascii: "}") else { return nil }
            }
            guard end > start, let value = values[String(decoding: bytes[start..<end], as: UTF8.self)] else { return nil }
            out += value.utf8
            index = braced ? end + 1 : end
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
    }
}
