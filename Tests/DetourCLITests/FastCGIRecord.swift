/// FastCGI records (the FastCGI 1.0 specification, §3.3) written byte for byte, for the
/// reproductions of an application server that breaks the record framing `fastcgi_pass` reads.
enum FastCGIRecord {
    static let endRequest: UInt8 = 3, stdout: UInt8 = 6

    /// A record of `type` for request `id` holding `content`, in protocol `version`.
    static func record(_ type: UInt8, id: UInt16 = 1, version: UInt8 = 1, _ content: [UInt8] = []) -> [UInt8] {
        [version, type, UInt8(id >> 8), UInt8(id & 0xff), UInt8(content.count >> 8), UInt8(content.count & 0xff), 0, 0] + content
    }

    /// The application's output on standard output.
    static func stdout(_ text: String) -> [UInt8] { record(stdout, Array(text.utf8)) }

    /// The end of request 1: application status 0, request complete.
    static let requestComplete = record(endRequest, [0, 0, 0, 0, 0, 0, 0, 0])
}
