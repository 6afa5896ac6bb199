import Foundation

/// Text written into the index's script files as JSON string literals.
enum JavaScriptLiteral {
    static func string(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            var out = [UInt8]()
            out.reserveCapacity(bytes.count + 2)
            out.append(UInt8(ascii: "\""))
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), byte]
                case UInt8(ascii: "\\"): out += [byte, byte]
                // `<` escaped so no index text can ever close a script element, wherever it ends up.
                case UInt8(ascii: "<"): out += Array("\\u003c".utf8)
                case 0..<0x20: out += Array(String(format: "\\u%04x", byte).utf8)
                // U+2028 and U+2029 (E2 80 A8/A9) end a line in older JavaScript.
                case 0xE2 where index + 2 < bytes.count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                    out += Array((bytes[index + 2] == 0xA8 ? "\\u2028" : "\\u2029").utf8)
                    index += 2
                default: out.append(byte)
                }
                index += 1
            }
            out.append(UInt8(ascii: "\""))
            return String(decoding: out, as: UTF8.self)
        }
    }

    static func strings(_ texts: [String]) -> String {
        "[" + texts.map(string).joined(separator: ",") + "]"
    }
}
