import DetourDiagnostics
import DetourProxyCore

/// A whole configuration as nginx reads it: every file read, and all directives with the
/// includes spliced in, in document order. Immutable once loaded and shared by every thread
/// that checks it; `NginxDirective` values point into it.
final class NginxConfig: @unchecked Sendable {
    let files: [NginxParsedFile]
    /// Every directive, each block's contents right after it.
    let entries: [NginxEntry]

    /// Where the arrays above keep their elements. Every thread reads every directive many
    /// times; through the arrays each read would count a reference to the same buffers from
    /// all cores at once, which costs more than the read. The arrays are never changed and
    /// live as long as this object, so their storage stays where it is.
    private let entryStorage: UnsafePointer<NginxEntry>?
    private let fileStorage: UnsafeMutableBufferPointer<(words: UnsafePointer<SourceWord>?, bytes: UnsafePointer<UInt8>?)>

    init(files: [NginxParsedFile], entries: [NginxEntry]) {
        self.files = files
        self.entries = entries
        entryStorage = self.entries.withUnsafeBufferPointer { $0.baseAddress }
        fileStorage = .allocate(capacity: files.count)
        for (index, file) in self.files.enumerated() {
            fileStorage[index] = (file.words.withUnsafeBufferPointer { $0.baseAddress }, file.bytes.withUnsafeBufferPointer { $0.baseAddress })
        }
    }

    deinit { fileStorage.deallocate() }

    /// The directives at the top level (outside any block).
    var directives: [NginxDirective] {
        Array(NginxDirective.Children(config: self, range: 0..<entries.count))
    }

    func entry(at index: Int) -> NginxEntry { entryStorage.unsafelyUnwrapped[index] }

    /// The storage as plain pointers, for loops over many directives: each use of this object
    /// from many threads at once counts a reference, the view's uses count none. Valid while
    /// the configuration is.
    var view: NginxConfigView { NginxConfigView(entries: entryStorage, files: UnsafeBufferPointer(fileStorage)) }
}

extension NginxConfig {
    /// Word `offset` of `entry` (0 is the name).
    func word(_ entry: NginxEntry, _ offset: Int) -> SourceWord {
        fileStorage[Int(entry.file)].words.unsafelyUnwrapped[Int(entry.firstWord) + offset]
    }

    /// The bytes of a word as written (quotes and escapes aside).
    func bytes(_ entry: NginxEntry, _ word: SourceWord) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: fileStorage[Int(entry.file)].bytes.unsafelyUnwrapped + Int(word.start), count: Int(word.length))
    }

    func value(_ entry: NginxEntry, _ offset: Int) -> String {
        let word = word(entry, offset)
        return NginxLexer.value(bytes(entry, word), hasEscapes: word.hasEscapes)
    }

    func location(_ entry: NginxEntry, _ offset: Int) -> SourceLocation {
        let word = word(entry, offset)
        return SourceLocation(path: files[Int(entry.file)].displayPath, line: Int(word.line), column: Int(word.column))
    }
}
