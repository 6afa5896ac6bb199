import DetourSupport

/// An article's sections for search (`Article.sections`): held, or written to a `TextSpill`
/// and read back when the search index wants them, as a build of a large site would otherwise
/// hold the plain text of every article for the whole build.
public struct SearchSections: Sendable {
    private(set) var held: [MarkdownDocument.Section]
    private(set) var spilled: SpilledSections?

    init(held: [MarkdownDocument.Section] = []) {
        self.held = held
    }

    /// The sections; each read of spilled ones makes them anew.
    public var sections: [MarkdownDocument.Section] { spilled?.sections ?? held }

    /// How many have a heading, without reading them back: the index's layout counts them.
    public var headedCount: Int { spilled?.headedCount ?? held.count { $0.heading != nil } }

    /// Moves held sections to `spill`; they stay if it refuses them.
    mutating func spill(to spill: TextSpill) {
        guard spilled == nil, let written = SpilledSections(held, to: spill) else { return }
        (held, spilled) = ([], written)
    }
}

/// Sections written to a `TextSpill`: where they are, and how many have a heading.
struct SpilledSections: Sendable {
    private let spill: TextSpill
    private let reference: TextSpill.Reference
    let headedCount: Int

    /// Nil when the spill refused the bytes: the sections stay where they are.
    init?(_ sections: [MarkdownDocument.Section], to spill: TextSpill) {
        var bytes: [UInt8] = []
        for section in sections {
            if let heading = section.heading {
                bytes.append(UInt8(clamping: heading.level))
                Self.append(heading.text, to: &bytes)
                Self.append(heading.id, to: &bytes)
            } else {
                bytes.append(0)
            }
            Self.append(section.text, to: &bytes)
        }
        guard let reference = spill.write(bytes) else { return nil }
        self.spill = spill
        self.reference = reference
        headedCount = sections.count { $0.heading != nil }
    }

    /// The sections as written; none if the spill can no longer be read.
    var sections: [MarkdownDocument.Section] {
        guard let bytes = spill.read(reference) else { return [] }
        var sections: [MarkdownDocument.Section] = []
        var position = 0
        while position < bytes.count {
            let level = Int(bytes[position])
            position += 1
            var heading: MarkdownDocument.Heading?
            if level > 0 {
                let text = Self.string(in: bytes, at: &position)
                heading = MarkdownDocument.Heading(level: level, text: text, id: Self.string(in: bytes, at: &position))
            }
            sections.append(MarkdownDocument.Section(heading: heading, text: Self.string(in: bytes, at: &position)))
        }
        return sections
    }

    /// The text's length in four bytes, then its UTF-8.
    private static func append(_ text: String, to bytes: inout [UInt8]) {
        let count = UInt32(text.utf8.count)
        bytes += [
            UInt8(truncatingIfNeeded: count), UInt8(truncatingIfNeeded: count >> 8), UInt8(truncatingIfNeeded: count >> 16),
            UInt8(truncatingIfNeeded: count >> 24),
        ]
        bytes += text.utf8
    }

    private static func string(in bytes: [UInt8], at position: inout Int) -> String {
        let count = Int(bytes[position]) | Int(bytes[position + 1]) << 8 | Int(bytes[position + 2]) << 16 | Int(bytes[position + 3]) << 24
        position += 4
        defer { position += count }
        return String(decoding: bytes[position..<(position + count)], as: UTF8.self)
    }
}
