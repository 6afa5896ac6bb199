import DetourDiagnostics

/// One directive of a loaded configuration: a position in its `NginxConfig`, read on demand.
/// It holds the configuration without a reference count, so the model can pass directives
/// around freely from many threads; whoever holds directives holds the configuration too
/// (`NginxServer` does).
struct NginxDirective: Hashable, @unchecked Sendable {
    /// One argument with its value decoded.
    struct Argument: Equatable {
        /// The value after escapes (`\"`, `\t`, …) were processed and quotes removed.
        var value: String
        var isQuoted: Bool
        var location: SourceLocation
    }

    /// The directives inside a block, in order, skipping what nests in them.
    struct Children: Sequence {
        unowned(unsafe) let config: NginxConfig
        let range: Range<Int>

        struct Iterator: IteratorProtocol {
            unowned(unsafe) let config: NginxConfig
            var index: Int
            let end: Int

            mutating func next() -> NginxDirective? {
                guard index < end else { return nil }
                defer { index = Int(config.entry(at: index).end) }
                return NginxDirective(config: config, index: index)
            }
        }

        func makeIterator() -> Iterator { Iterator(config: config, index: range.lowerBound, end: range.upperBound) }
    }

    unowned(unsafe) let config: NginxConfig
    let index: Int

    private var entry: NginxEntry { config.entry(at: index) }

    /// The name's bytes, read in place: no string is made to look it up.
    func withNameBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let entry = entry
        let word = config.word(entry, 0)
        guard word.hasEscapes else { return body(config.bytes(entry, word)) }
        var name = config.value(entry, 0)
        return name.withUTF8(body)
    }

    /// Whether word `position` (0 is the name) holds `byte` as written: a scan of its bytes,
    /// so most words are passed over without a string.
    func word(_ position: Int, contains byte: UInt8) -> Bool {
        let entry = entry
        guard position <= argumentCount else { return false }
        return config.bytes(entry, config.word(entry, position)).contains(byte)
    }

    /// The directive's name when detour knows it; nil for other directives.
    var kind: NginxDirectiveName? { entry.name }
    var name: String { kind?.rawValue ?? config.value(entry, 0) }
    var isBlock: Bool { entry.isBlock }
    var argumentCount: Int { Int(entry.wordCount) - 1 }

    var location: SourceLocation { config.location(entry, 0) }

    func value(at position: Int) -> String? {
        guard position >= 0, position < argumentCount else { return nil }
        return config.value(entry, 1 + position)
    }

    var firstValue: String? { value(at: 0) }
    var lastValue: String? { value(at: argumentCount - 1) }
    var values: [String] { (0..<argumentCount).map { config.value(entry, 1 + $0) } }

    var arguments: [Argument] {
        (0..<argumentCount).map { position in
            Argument(
                value: config.value(entry, 1 + position), isQuoted: config.word(entry, 1 + position).isQuoted,
                location: config.location(entry, 1 + position))
        }
    }

    /// Where argument `position` was written.
    func location(ofArgument position: Int) -> SourceLocation? {
        guard position >= 0, position < argumentCount else { return nil }
        return config.location(entry, 1 + position)
    }

    /// Where nginx reports the directive: where it ends, at its `;` or `{`, which is on its
    /// last word's line as a rule.
    var endLocation: SourceLocation { location(ofArgument: argumentCount - 1) ?? location }

    /// Where the block's `}` is; the directive's own place when unknown.
    var closingLocation: SourceLocation {
        let entry = entry
        guard entry.closeLine > 0 else { return location }
        return SourceLocation(path: config.files[Int(entry.file)].displayPath, line: Int(entry.closeLine), column: Int(entry.closeColumn))
    }

    /// The block's contents; empty for a simple directive.
    var children: Children {
        let entry = entry
        return Children(config: config, range: entry.isBlock ? index + 1..<Int(entry.end) : index..<index)
    }

    /// The block's contents as an array, nil for a simple directive.
    var block: [NginxDirective]? { isBlock ? Array(children) : nil }

    static func == (lhs: NginxDirective, rhs: NginxDirective) -> Bool {
        lhs.config === rhs.config && lhs.index == rhs.index
    }

    func hash(into hasher: inout Hasher) { hasher.combine(index) }
}
