/// HTTP/2 frames written byte for byte (RFC 9113 §4.1), and the few HPACK fields (RFC 7541) the
/// reproductions of a gRPC upstream breaking the protocol need: any frame nginx's `grpc_pass`
/// must refuse, which no HTTP/2 library will write.
enum HTTP2Frame {
    static let data: UInt8 = 0, headers: UInt8 = 1, rstStream: UInt8 = 3, settings: UInt8 = 4, pushPromise: UInt8 = 5, ping: UInt8 = 6
    static let goaway: UInt8 = 7, windowUpdate: UInt8 = 8, continuation: UInt8 = 9
    static let endStream: UInt8 = 0x1, ack: UInt8 = 0x1, endHeaders: UInt8 = 0x4, padded: UInt8 = 0x8

    /// A frame of `type` with `flags` on `stream` carrying `payload`.
    static func frame(_ type: UInt8, flags: UInt8 = 0, stream: UInt32 = 1, _ payload: [UInt8] = []) -> [UInt8] {
        let length = UInt32(payload.count)
        return [UInt8(length >> 16 & 0xff), UInt8(length >> 8 & 0xff), UInt8(length & 0xff), type, flags] + bigEndian(stream & 0x7fff_ffff) + payload
    }

    /// A whole header block on stream 1 (`END_HEADERS`, and `extra` flags).
    static func headerBlock(_ fields: [UInt8], extra: UInt8 = 0, stream: UInt32 = 1) -> [UInt8] {
        frame(headers, flags: endHeaders | extra, stream: stream, fields)
    }

    /// `:status: 200` from HPACK's static table.
    static let status200: [UInt8] = [0x88]

    /// A field literal without indexing, its name new and both strings plain.
    static func field(_ name: String, _ value: String) -> [UInt8] {
        [0x00, UInt8(name.utf8.count)] + Array(name.utf8) + [UInt8(value.utf8.count)] + Array(value.utf8)
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)]
    }
}
