/// GFM's tagfilter: where raw HTML is let through, the tags that would swallow or script the rest
/// of the page (`<script>`, `<style>`, `<iframe>`…) are written as text, their `<` as `&lt;`, as
/// GitHub and cmark-gfm's `tagfilter` extension do. Other tags pass untouched.
enum TagFilter {
    static let filteredTags = ["title", "textarea", "style", "xmp", "iframe", "noembed", "noframes", "script", "plaintext"].map { Array($0.utf8) }

    static func apply(_ html: String) -> String {
        let bytes = Array(html.utf8)
        guard bytes.contains(UInt8(ascii: "<")) else { return html }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 8)
        for index in bytes.indices {
            if bytes[index] == UInt8(ascii: "<"), isFiltered(bytes, at: index) {
                out += Array("&lt;".utf8)
            } else {
                out.append(bytes[index])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether the `<` at `start` opens or closes a filtered tag: its name, case aside, then white
    /// space, `>` or `/>`.
    private static func isFiltered(_ bytes: [UInt8], at start: Int) -> Bool {
        var nameStart = start + 1
        if nameStart < bytes.count, bytes[nameStart] == UInt8(ascii: "/") { nameStart += 1 }
        return filteredTags.contains { name in
            let end = nameStart + name.count
            guard end < bytes.count else { return false }
            for offset in name.indices where lowercased(bytes[nameStart + offset]) != name[offset] { return false }
            switch bytes[end] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), 0x0B, 0x0C, UInt8(ascii: ">"): return true
            case UInt8(ascii: "/"): return end + 1 < bytes.count && bytes[end + 1] == UInt8(ascii: ">")
            default: return false
            }
        }
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}
