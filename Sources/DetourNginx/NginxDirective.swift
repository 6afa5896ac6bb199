import DetourDiagnostics
import DetourSupport

/// One directive of a loaded configuration: a position in its `NginxConfig`, read on demand
/// through the configuration's view, which counts no references, so the model can pass
/// directives around freely from many threads. Valid while the configuration is: whoever
/// holds directives holds the configuration too (`NginxServer` does).
struct NginxDirective: Hashable, Sendable {
    /// One argument with its value decoded.
    struct Argument: Equatable {
        /// The value after escapes (`\"`, `\t`, …) were processed and quotes removed.
        var value: String
        var isQuoted: Bool
        var location: SourceLocation
    }

    /// The directives inside a block, in order, skipping what nests in them.
    struct Children: Sequence {
        let view: NginxConfigView
        let range: Range<Int>

        struct Iterator: IteratorProtocol {
            let view: NginxConfigView
            var index: Int
            let end: Int

            mutating func next() -> NginxDirective? {
                guard index < end else { return nil }
                defer { index = Int(view.entry(index).end) }
                return NginxDirective(view: view, index: index)
            }
        }

        func makeIterator() -> Iterator { Iterator(view: view, index: range.lowerBound, end: range.upperBound) }
    }

    let view: NginxConfigView
    let index: Int

    private var entry: NginxEntry { view.entry(index) }

    /// The name's bytes, read in place: no string is made to look it up.
    func withNameBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let entry = entry
        let word = view.word(entry, 0)
        guard word.hasEscapes else { return body(view.bytes(entry, word)) }
        var name = view.value(entry, 0)
        return name.withUTF8(body)
    }

    /// Whether word `position` (0 is the name) holds `byte` as written: a scan of its bytes,
    /// so most words are passed over without a string.
    func word(_ position: Int, contains byte: UInt8) -> Bool {
        let entry = entry
        guard position <= argumentCount else { return false }
        return view.bytes(entry, view.word(entry, position)).contains(byte)
    }

    /// Whether `byte` is written anywhere from the first argument to the end of the last: one
    /// scan of the source (what lies between words counts too, so a true needs each word asked).
    func arguments(mayContain byte: UInt8) -> Bool {
        let entry = entry
        guard entry.wordCount > 1 else { return false }
        let last = view.word(entry, Int(entry.wordCount) - 1)
        let start = Int(view.word(entry, 1).start)
        let end = Int(last.start) + Int(last.length)
        return view.files[Int(entry.file)].bytes.slice(start, count: max(0, end - start)).contains(byte)
    }

    /// Whether an argument after the first is `option` (`listen 443 ssl`), compared where it
    /// was written: no string is made of each word.
    func hasOption(_ option: StaticString) -> Bool {
        let entry = entry
        return (2..<max(2, Int(entry.wordCount))).contains { position in
            let word = view.word(entry, position)
            return word.hasEscapes ? ASCIIText.equals(view.value(entry, position).utf8, option) : ASCIIText.equals(view.bytes(entry, word), option)
        }
    }

    /// The directive's name when detour knows it; nil for other directives.
    var kind: NginxDirectiveName? { entry.name }
    var name: String { kind?.rawValue ?? view.value(entry, 0) }
    var isBlock: Bool { entry.isBlock }
    var argumentCount: Int { Int(entry.wordCount) - 1 }

    var location: SourceLocation { view.location(entry, 0) }

    func value(at position: Int) -> String? {
        guard position >= 0, position < argumentCount else { return nil }
        return view.value(entry, 1 + position)
    }

    var firstValue: String? { value(at: 0) }
    var lastValue: String? { value(at: argumentCount - 1) }
    var values: [String] { (0..<argumentCount).map { view.value(entry, 1 + $0) } }

    var arguments: [Argument] {
        (0..<argumentCount).map { position in
            Argument(
                value: view.value(entry, 1 + position), isQuoted: view.word(entry, 1 + position).isQuoted,
                location: view.location(entry, 1 + position))
        }
    }

    /// Where argument `position` was written.
    func location(ofArgument position: Int) -> SourceLocation? {
        guard position >= 0, position < argumentCount else { return nil }
        return view.location(entry, 1 + position)
    }

    /// Where nginx reports the directive: where it ends, at its `;` or `{`, which is on its
    /// last word's line as a rule.
    var endLocation: SourceLocation { location(ofArgument: argumentCount - 1) ?? location }
    /// Where a refusal of the directive is reported: at its name, on the line nginx names (the
    /// one it ends on); a directive spread over lines is reported at its last word there.
    var refusalLocation: SourceLocation {
        let end = endLocation
        return end.line == location.line && end.path == location.path ? location : end
    }

    /// Where the block's `}` is; the directive's own place when unknown.
    var closingLocation: SourceLocation {
        let entry = entry
        guard entry.closeLine > 0 else { return location }
        return SourceLocation(path: view.files[Int(entry.file)].displayPath, line: Int(entry.closeLine), column: Int(entry.closeColumn))
    }

    /// The block's contents; empty for a simple directive.
    var children: Children {
        let entry = entry
        return Children(view: view, range: entry.isBlock ? index + 1..<Int(entry.end) : index..<index)
    }

    /// The block's contents as an array, nil for a simple directive.
    var block: [NginxDirective]? { isBlock ? Array(children) : nil }

    static func == (lhs: NginxDirective, rhs: NginxDirective) -> Bool {
        lhs.view.entries.isSame(as: rhs.view.entries) && lhs.index == rhs.index
    }

    func hash(into hasher: inout Hasher) { hasher.combine(index) }
}
