import Foundation

/// A value per word, looked up by the word's UTF-8 bytes: the tokenizer hands most words over
/// as bytes, and a chunk meets each word thousands of times, so a lookup makes no string and
/// hashes with a multiplication per byte rather than the standard library's keyed SipHash.
/// Keys are the index's own text, so there is no adversary to seed against.
struct SearchWordTable<Value: Sendable>: Sendable {
    /// Entry number by slot, -1 for an empty slot; a power of two long, at most half full.
    /// Small, so that the slots a lookup probes stay in the cache.
    private var slots: [Int32] = Array(repeating: -1, count: 1024)
    private var hashes: [UInt64] = []
    /// Each entry's key, as a range of `keyBytes`.
    private var keyStarts: [Int32] = []
    private var keyBytes: [UInt8] = []
    private var values: [Value] = []

    /// The value stored for `key`, if any.
    func value(for key: UnsafeBufferPointer<UInt8>) -> Value? {
        let entry = slots[slot(of: key, hash: Self.hash(key))]
        return entry < 0 ? nil : values[Int(entry)]
    }

    /// Stores `value` for `key`, which has none yet.
    mutating func insert(_ value: Value, for key: UnsafeBufferPointer<UInt8>) {
        let hash = Self.hash(key)
        slots[slot(of: key, hash: hash)] = Int32(values.count)
        hashes.append(hash)
        keyStarts.append(Int32(keyBytes.count))
        keyBytes.append(contentsOf: key)
        values.append(value)
        if values.count * 2 > slots.count { grow() }
    }

    /// The slot that holds `key`, or the empty one where it would go.
    private func slot(of key: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Int {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while case let entry = Int(slots[slot]), entry >= 0 {
            if hashes[entry] == hash, matches(entry, key) { return slot }
            slot = (slot + 1) & mask
        }
        return slot
    }

    private func matches(_ entry: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = Int(keyStarts[entry])
        let end = entry + 1 < keyStarts.count ? Int(keyStarts[entry + 1]) : keyBytes.count
        guard end - start == key.count else { return false }
        return keyBytes.withUnsafeBufferPointer { stored in
            key.isEmpty || memcmp(stored.baseAddress! + start, key.baseAddress!, key.count) == 0
        }
    }

    private mutating func grow() {
        slots = Array(repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for (entry, hash) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(entry)
        }
    }

    /// FNV-1a over the bytes, its high bits folded into the low ones a slot is taken from.
    private static func hash(_ key: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash ^ (hash >> 29)
    }
}
