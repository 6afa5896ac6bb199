import DetourDiagnostics

/// A whole configuration as nginx reads it: every file read, and all directives with the
/// includes spliced in, in document order. Immutable once loaded and shared by every thread
/// that checks it; `NginxDirective` values point into it.
final class NginxConfig: Sendable {
    let files: [NginxParsedFile]
    /// Every directive, each block's contents right after it.
    let entries: [NginxEntry]

    init(files: [NginxParsedFile], entries: [NginxEntry]) {
        self.files = files
        self.entries = entries
    }

    /// The directives at the top level (outside any block).
    var directives: [NginxDirective] {
        Array(NginxDirective.Children(config: self, range: 0..<entries.count))
    }
}

extension NginxConfig {
    // Reached through `files[…]` in place: a local copy of a file would retain its arrays,
    // and those counts are shared by every thread.

    /// Word `offset` of `entry` (0 is the name).
    func word(_ entry: NginxEntry, _ offset: Int) -> NginxWord {
        files[Int(entry.file)].words[Int(entry.firstWord) + offset]
    }

    func value(_ entry: NginxEntry, _ offset: Int) -> String {
        files[Int(entry.file)].value(of: word(entry, offset))
    }

    func location(_ entry: NginxEntry, _ offset: Int) -> SourceLocation {
        files[Int(entry.file)].location(of: word(entry, offset))
    }
}
