import DetourDiagnostics
import DetourProxyCore
import DetourSupport

/// A loaded configuration's directives and words by address (`NginxConfig.view`): reading
/// through it counts no references, so scans of every directive on every core do not contend
/// on the configuration object. Valid while its `NginxConfig` is.
struct NginxConfigView: Sendable {
    /// One file's words and bytes.
    struct File: Sendable {
        let words: PinnedArray<SourceWord>.View
        let bytes: PinnedArray<UInt8>.View
        let displayPath: String
    }

    let entries: PinnedArray<NginxEntry>.View
    let files: PinnedArray<File>.View

    func entry(_ index: Int) -> NginxEntry { entries[index] }

    /// Word `offset` of `entry` (0 is the name).
    func word(_ entry: NginxEntry, _ offset: Int) -> SourceWord {
        files[Int(entry.file)].words[Int(entry.firstWord) + offset]
    }

    /// The bytes of a word of `entry` as written (quotes and escapes aside).
    func bytes(_ entry: NginxEntry, _ word: SourceWord) -> UnsafeBufferPointer<UInt8> {
        files[Int(entry.file)].bytes.slice(Int(word.start), count: Int(word.length))
    }

    /// The bytes of word `position` of directive `index` as written (0 is the name).
    func bytes(_ index: Int, word position: Int) -> UnsafeBufferPointer<UInt8> {
        let entry = entry(index)
        return bytes(entry, word(entry, position))
    }

    func value(_ entry: NginxEntry, _ offset: Int) -> String {
        let word = word(entry, offset)
        return NginxLexer.value(bytes(entry, word), hasEscapes: word.hasEscapes)
    }

    func location(_ entry: NginxEntry, _ offset: Int) -> SourceLocation {
        let word = word(entry, offset)
        return SourceLocation(path: files[Int(entry.file)].displayPath, line: Int(word.line), column: Int(word.column))
    }

    /// Whether a word of directive `index` in `positions` holds `byte`.
    func anyWord(_ index: Int, in positions: ClosedRange<Int>, contains byte: UInt8) -> Bool {
        let count = Int(entry(index).wordCount)
        guard positions.lowerBound < count else { return false }
        return (positions.lowerBound...min(positions.upperBound, count - 1)).contains { bytes(index, word: $0).contains(byte) }
    }
}
