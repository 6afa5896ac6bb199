import DetourProxyCore

/// A loaded configuration's directives and words as plain pointers (`NginxConfig.view`):
/// reading through it counts no references, so scans of every directive on every core do not
/// contend on the configuration object.
struct NginxConfigView: @unchecked Sendable {
    let entries: UnsafePointer<NginxEntry>?
    let files: UnsafeBufferPointer<(words: UnsafePointer<SourceWord>?, bytes: UnsafePointer<UInt8>?)>

    func entry(_ index: Int) -> NginxEntry { entries.unsafelyUnwrapped[index] }

    /// The bytes of word `position` of directive `index` as written (0 is the name).
    func bytes(_ index: Int, word position: Int) -> UnsafeBufferPointer<UInt8> {
        let entry = entry(index)
        let file = files[Int(entry.file)]
        let word = file.words.unsafelyUnwrapped[Int(entry.firstWord) + position]
        return UnsafeBufferPointer(start: file.bytes.unsafelyUnwrapped + Int(word.start), count: Int(word.length))
    }

    /// Whether a word of directive `index` in `positions` holds `byte`.
    func anyWord(_ index: Int, in positions: ClosedRange<Int>, contains byte: UInt8) -> Bool {
        let count = Int(entry(index).wordCount)
        guard positions.lowerBound < count else { return false }
        return (positions.lowerBound...min(positions.upperBound, count - 1)).contains { bytes(index, word: $0).contains(byte) }
    }
}
