import DetourDiagnostics
import DetourProxyCore
import Foundation

/// The configuration as `apache2 -f main.conf` reads it: includes spliced in where they
/// stand (paths and globs from ServerRoot), `Define` and `${VAR}` applied, `<IfModule>` and
/// `<IfDefine>` decided, every other section kept with what is inside it.
///
/// A flat store: the directives in order, each a span of words of one of the files read, a
/// section followed by what it holds. Strings are made only for the words a model reads.
struct ApacheConfig: Sendable {
    /// Every file read, in the order read (a file included twice is here twice).
    var sources: [SourceBuffer] = []
    /// Where each of `sources` is on disk.
    var paths: [String] = []
    var entries: [FlatEntry<ApacheName>] = []
    /// What Apache refuses in the files' shape (a section not closed, an Include of nothing):
    /// the model is not read past these.
    var diagnostics: [Diagnostic] = []
    /// What Apache refuses in one directive's words (`ApacheReader.directiveRefusals`).
    var directiveRefusals: [Diagnostic] = []
    /// Every file read, as findings name them.
    var files: [String] = []
    /// Where relative paths start: `ServerRoot`, else `--server-root`, else the main file's folder.
    var serverRoot = ""

    /// Apache's limit on nested includes.
    static let includeDepth = 128
    /// detour's limit on sections inside sections: what lies deeper is not read.
    static let sectionDepth = 100

    static func load(main: URL, display: String, serverRoot: String?, environment: [String: String]) -> ApacheConfig {
        var reader = ApacheReader(environment: environment, serverRoot: serverRoot ?? main.deletingLastPathComponent().path)
        reader.read(main.path, display: display, depth: 0)
        reader.refuseUnknownDirectives()
        var config = ApacheConfig(
            sources: reader.sources, paths: reader.paths, entries: reader.entries, diagnostics: reader.diagnostics,
            directiveRefusals: reader.directiveRefusals, files: reader.files,
            serverRoot: reader.serverRoot)
        if reader.files.isEmpty { config.files = [display] }
        return config
    }

    /// How many arguments follow the entry's name.
    func argumentCount(_ entry: FlatEntry<ApacheName>) -> Int { Int(entry.wordCount) - 1 }

    /// The entry's argument `index` (0 is the first after the name).
    func argument(_ index: Int, of entry: FlatEntry<ApacheName>) -> String {
        let file = Int(entry.file)
        return sources[file].apacheValue(sources[file].words[Int(entry.firstWord) + 1 + index])
    }

    /// Whether the entry's argument `index` is `text`, compared in place.
    func argument(_ index: Int, of entry: FlatEntry<ApacheName>, is text: String) -> Bool {
        let file = Int(entry.file)
        let word = sources[file].words[Int(entry.firstWord) + 1 + index]
        return !word.hasEscapes && sources[file].bytes[word.byteRange].elementsEqual(text.utf8)
    }

    func arguments(of entry: FlatEntry<ApacheName>) -> [String] {
        guard entry.wordCount > 1 else { return [] }
        return sources[Int(entry.file)].apacheValues((Int(entry.firstWord) + 1)..<Int(entry.firstWord + entry.wordCount))
    }

    /// Where the entry's name is written. The file's store is read in place, not copied: this
    /// runs for every directive the model reads.
    func location(of entry: FlatEntry<ApacheName>) -> SourceLocation {
        let file = Int(entry.file)
        let word = sources[file].words[Int(entry.firstWord)]
        return SourceLocation(path: sources[file].displayPath, line: Int(word.line), column: Int(word.column))
    }
}
