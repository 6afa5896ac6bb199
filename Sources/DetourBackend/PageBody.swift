import DetourLayout
import DetourSupport
import NIOCore

/// A page split where the request's ID goes, so each answer is the two halves around it: in
/// HTML where the build left the servers' reference markup, in JSON as a last member, in text
/// as a last line. Without an ID the page is exactly the file the build wrote (less, in HTML,
/// the markup that only a server filling it in needs).
struct PageBody: Sendable {
    /// The page without an ID, made once: each answer shares its storage.
    let whole: ByteBuffer
    /// Where in `whole` the ID goes.
    let split: Int
    let format: String

    init(_ bytes: [UInt8], format: String) {
        let (before, after) = Self.split(bytes, format: format)
        self.format = format
        split = before.count
        whole = ByteBuffer(bytes: before + after)
    }

    private static func split(_ bytes: [UInt8], format: String) -> (before: ArraySlice<UInt8>, after: ArraySlice<UInt8>) {
        switch format {
        case "html":
            let marker = Array(OutputFormat.requestReferenceMarkup.utf8)
            if let found = bytes.firstRange(of: marker) { return (bytes[..<found.lowerBound], bytes[found.upperBound...]) }
        case "json":
            if let brace = bytes.lastIndex(of: UInt8(ascii: "}")) {
                var end = brace
                while end > 0, [UInt8(ascii: "\n"), UInt8(ascii: " ")].contains(bytes[end - 1]) { end -= 1 }
                return (bytes[..<end], bytes[end...])
            }
        default:
            break
        }
        return (bytes[...], [])
    }

    /// The page with `requestID` (already limited to safe characters) in its place.
    func buffer(requestID: String?) -> ByteBuffer {
        guard let requestID else { return whole }
        let inserted = self.inserted(requestID)
        var buffer = ByteBufferAllocator().buffer(capacity: whole.readableBytes + inserted.utf8.count)
        buffer.writeBytes(whole.readableBytesView.prefix(split))
        buffer.writeString(inserted)
        buffer.writeBytes(whole.readableBytesView.dropFirst(split))
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
