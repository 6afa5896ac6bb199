import DetourSupport

/// An article's sections for search, written to a `TextSpill` and read back when the search
/// index wants them: a build of a large site would otherwise hold the plain text of every
/// article for the whole build. The text before the first heading and the count of headed
/// sections stay in memory, as lists and the index's layout read them without the rest.
struct SpilledSections: Sendable {
    private let spill: TextSpill
    private let reference: TextSpill.Reference
    let intro: String?
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
        intro = sections.first { $0.heading == nil }?.text
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
