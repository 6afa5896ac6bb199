import DetourSite
import DetourSupport
import NIOCore

/// A page split where the request's ID goes, so each answer is the two halves around it: in
/// HTML where the build left the servers' reference markup, in JSON as a last member, in text
/// as a last line. Without an ID the page is exactly the file the build wrote (less, in HTML,
/// the markup that only a server filling it in needs).
struct PageBody: Sendable {
    let before: [UInt8]
    let after: [UInt8]
    let format: String
    /// The page without an ID, made once: each answer shares its storage.
    let whole: ByteBuffer

    init(_ bytes: [UInt8], format: String) {
        (before, after) = Self.split(bytes, format: format)
        self.format = format
        whole = ByteBuffer(bytes: before + after)
    }

    private static func split(_ bytes: [UInt8], format: String) -> (before: [UInt8], after: [UInt8]) {
        switch format {
        case "html":
            let marker = Array(SnippetTarget.requestReferenceMarkup.utf8)
            if let found = bytes.firstRange(of: marker) { return (Array(bytes[..<found.lowerBound]), Array(bytes[found.upperBound...])) }
        case "json":
            if let brace = bytes.lastIndex(of: UInt8(ascii: "}")) {
                var end = brace
                while end > 0, [UInt8(ascii: "\n"), UInt8(ascii: " ")].contains(bytes[end - 1]) { end -= 1 }
                return (Array(bytes[..<end]), Array(bytes[end...]))
            }
        default:
            break
        }
        return (bytes, [])
    }

    /// The page with `requestID` (already limited to safe characters) in its place.
    func buffer(requestID: String?) -> ByteBuffer {
        guard let requestID else { return whole }
        let inserted = self.inserted(requestID)
        var buffer = ByteBufferAllocator().buffer(capacity: before.count + inserted.utf8.count + after.count)
        buffer.writeBytes(before)
        buffer.writeString(inserted)
        buffer.writeBytes(after)
        return buffer
    }

    private func inserted(_ requestID: String) -> String {
        switch format {
        case "html": HTMLText.escape(requestID)
        case "json": ",\n  \"request_id\": \(JSONString.quoted(requestID, .document))"
        default: "Reference: \(requestID)\n"
        }
    }
}
