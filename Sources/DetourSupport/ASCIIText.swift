/// Strings made straight from bytes known to be ASCII, without a pass through Unicode.
public enum ASCIIText {
    /// `bytes` with A-Z lowered, as a string: the bytes are copied once, into the string's own storage.
    @inlinable public static func lowercased(_ bytes: some Collection<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count) { buffer in
            var offset = 0
            for byte in bytes {
                buffer[offset] = lowercased(byte)
                offset += 1
            }
            return offset
        }
    }

    /// `byte` with A-Z lowered.
    @inlinable public static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// Whether `bytes` are `word`'s bytes, compared where both lie: no string is made of either.
    @inlinable public static func equals(_ bytes: some Sequence<UInt8>, _ word: StaticString) -> Bool {
        word.withUTF8Buffer { bytes.elementsEqual($0) }
    }
}
