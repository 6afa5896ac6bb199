import Glibc

/// Substring search byte by byte, without Unicode rules or Foundation: the standard
/// `firstRange(of:)` builds a searcher on every call and Foundation's `contains` goes through
/// NSString, both slow on the short words a configuration of thousands of sites is read as.
public enum ByteSearch {
    /// Where `part` first occurs in `text` (an empty `part` at its start).
    @inlinable public static func firstRange(of part: some StringProtocol, in text: some StringProtocol) -> Range<String.Index>? {
        let bytes = text.utf8
        let wanted = part.utf8
        guard let first = wanted.first else { return text.startIndex..<text.startIndex }
        var start = bytes.startIndex
        while let found = bytes[start...].firstIndex(of: first) {
            var inText = found
            var inPart = wanted.startIndex
            while inPart != wanted.endIndex, inText != bytes.endIndex, bytes[inText] == wanted[inPart] {
                bytes.formIndex(after: &inText)
                wanted.formIndex(after: &inPart)
            }
            if inPart == wanted.endIndex { return found..<inText }
            start = bytes.index(after: found)
        }
        return nil
    }

    /// Whether `part` occurs in `text`.
    @inlinable public static func contains(_ part: some StringProtocol, in text: some StringProtocol) -> Bool {
        firstRange(of: part, in: text) != nil
    }

    /// Whether `text` holds `byte`, found by memchr over its UTF-8 in place: most texts a
    /// reader asks this of (every server address of a large configuration) hold none.
    public static func contains(_ byte: UInt8, in text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in bytes.baseAddress.map { memchr($0, Int32(byte), bytes.count) != nil } ?? false }
    }
}
