/// FNV-1a over a few bytes of a line, for counting what they name (a request, an upstream)
/// without making a string of them.
enum LogHash {
    static func of(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> UInt64 {
        bytes.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
}
