/// Text made safe for HTML and XML, in element content and in quoted attribute values alike.
public enum HTMLText {
    public static func escape(_ text: String) -> String {
        var escaped = ""
        append(text, to: &escaped)
        return escaped
    }

    /// How many UTF-8 bytes `escape(text)` has, without making it.
    public static func escapedCount(_ text: String) -> Int {
        text.utf8.reduce(0) { count, byte in
            switch byte {
            case UInt8(ascii: "&"), UInt8(ascii: "'"): count + 5
            case UInt8(ascii: "<"), UInt8(ascii: ">"): count + 4
            case UInt8(ascii: "\""): count + 6
            default: count + 1
            }
        }
    }

    /// `text`, escaped, added to `output`: runs without a special character are copied whole,
    /// so the common case is one append.
    public static func append(_ text: String, to output: inout String) {
        let copied: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
            var start = 0
            for (offset, byte) in bytes.enumerated() {
                let replacement: String
                switch byte {
                case UInt8(ascii: "&"): replacement = "&amp;"
                case UInt8(ascii: "<"): replacement = "&lt;"
                case UInt8(ascii: ">"): replacement = "&gt;"
                case UInt8(ascii: "\""): replacement = "&quot;"
                case UInt8(ascii: "'"): replacement = "&#39;"
                default: continue
                }
                if offset > start { output += String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self) }
                output += replacement
                start = offset + 1
            }
            if start == 0 {
                output += text
            } else if start < bytes.count {
                output += String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self)
            }
        }
        // A bridged string without contiguous UTF-8: escape a native copy.
        if copied == nil { append(String(decoding: Array(text.utf8), as: UTF8.self), to: &output) }
    }
}
