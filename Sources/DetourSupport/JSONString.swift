/// Text as the body of a JSON string (a JavaScript string literal too). One escaper, two
/// audiences: the error pages' JSON, which a mislabelled proxy may show as HTML, and the
/// search index's script files, which older JavaScript engines read.
public enum JSONString {
    public struct Style: Sendable {
        /// `\n`, `\r`, `\t` instead of their `\u` forms (for people reading the file).
        public var shortControlEscapes: Bool
        /// `>` and `&` escaped as well as `<`, so no tag or entity can form.
        public var escapesMarkup: Bool
        /// U+2028 and U+2029 escaped: they end a line in JavaScript before ES2019.
        public var escapesLineSeparators: Bool

        /// For a JSON document (the error pages' problem details).
        public static let document = Style(shortControlEscapes: true, escapesMarkup: true, escapesLineSeparators: false)
        /// For a string literal in a script file (the search index).
        public static let script = Style(shortControlEscapes: false, escapesMarkup: false, escapesLineSeparators: true)
    }

    /// `text` escaped, without the surrounding quotes. On bytes, plain runs copied whole: the
    /// search index runs megabytes of text through it.
    public static func escape(_ text: String, _ style: Style) -> String { encode(text, style, quoted: false) }

    /// `text` as a quoted literal.
    public static func quoted(_ text: String, _ style: Style) -> String { encode(text, style, quoted: true) }

    private static func encode(_ text: String, _ style: Style, quoted: Bool) -> String {
        var text = text
        return text.withUTF8 { bytes in
            var out = [UInt8]()
            out.reserveCapacity(bytes.count + 2)
            if quoted { out.append(UInt8(ascii: "\"")) }
            append(bytes, style, to: &out)
            if quoted { out.append(UInt8(ascii: "\"")) }
            return String(decoding: out, as: UTF8.self)
        }
    }

    private static func append(_ bytes: UnsafeBufferPointer<UInt8>, _ style: Style, to out: inout [UInt8]) {
        var index = 0
        while index < bytes.count {
            // A run of bytes no style escapes is copied whole: most text is such runs.
            let start = index
            while index < bytes.count, !mayEscape(bytes[index]) { index += 1 }
            if index > start { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index])) }
            guard index < bytes.count else { return }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), byte]
            case UInt8(ascii: "\n") where style.shortControlEscapes: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\r") where style.shortControlEscapes: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case UInt8(ascii: "\t") where style.shortControlEscapes: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20: out += unicodeEscape(UInt32(byte))
            case UInt8(ascii: "<"): out += unicodeEscape(0x3C)
            case UInt8(ascii: ">") where style.escapesMarkup: out += unicodeEscape(0x3E)
            case UInt8(ascii: "&") where style.escapesMarkup: out += unicodeEscape(0x26)
            // U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
            case 0xE2
            where style.escapesLineSeparators && index + 2 < bytes.count && bytes[index + 1] == 0x80
                && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                out += unicodeEscape(bytes[index + 2] == 0xA8 ? 0x2028 : 0x2029)
                index += 2
            default: out.append(byte)
            }
            index += 1
        }
    }

    /// Whether some style escapes `byte`, or a sequence it starts.
    @inline(__always) private static func mayEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
            || byte == UInt8(ascii: "&") || byte == 0xE2
    }

    /// `\u001f`: four lowercase hex digits.
    private static func unicodeEscape(_ value: UInt32) -> [UInt8] {
        let hex = Array(String(value, radix: 16).utf8)
        return [UInt8(ascii: "\\"), UInt8(ascii: "u")] + [UInt8](repeating: UInt8(ascii: "0"), count: 4 - hex.count) + hex
    }
}
