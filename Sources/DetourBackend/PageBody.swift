import DetourSite
import DetourSupport

/// A page split where the request's ID goes, so each answer is the two halves around it: in
/// HTML where the build left the servers' reference markup, in JSON as a last member, in text
/// as a last line. Without an ID the page is exactly the file the build wrote (less, in HTML,
/// the markup that only a server filling it in needs).
struct PageBody: Sendable {
    let before: [UInt8]
    let after: [UInt8]
    let format: String

    init(_ bytes: [UInt8], format: String) {
        self.format = format
        switch format {
        case "html":
            let marker = Array(SnippetTarget.requestReferenceMarkup.utf8)
            if let start = Self.firstIndex(of: marker, in: bytes) {
                before = Array(bytes[..<start])
                after = Array(bytes[(start + marker.count)...])
                return
            }
        case "json":
            if let brace = bytes.lastIndex(of: UInt8(ascii: "}")) {
                var end = brace
                while end > 0, [UInt8(ascii: "\n"), UInt8(ascii: " ")].contains(bytes[end - 1]) { end -= 1 }
                before = Array(bytes[..<end])
                after = Array(bytes[end...])
                return
            }
        default:
            break
        }
        before = bytes
        after = []
    }

    /// The page with `requestID` (already limited to safe characters) in its place.
    func bytes(requestID: String?) -> [UInt8] {
        guard let requestID else { return before + after }
        let inserted: String
        switch format {
        case "html": inserted = HTMLText.escape(requestID)
        case "json": inserted = ",\n  \"request_id\": \(JSONString.quoted(requestID, .document))"
        default: inserted = "Reference: \(requestID)\n"
        }
        return before + Array(inserted.utf8) + after
    }

    private static func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard let first = needle.first, haystack.count >= needle.count else { return nil }
        var index = 0
        while index <= haystack.count - needle.count {
            if haystack[index] == first, haystack[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
