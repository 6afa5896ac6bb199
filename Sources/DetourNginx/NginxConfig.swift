import DetourDiagnostics
import DetourProxyCore
import DetourSupport

/// A whole configuration as nginx reads it: every file read, and all directives with the
/// includes spliced in, in document order. Immutable once loaded and shared by every thread
/// that checks it. It owns the pinned copies of its directives, words and bytes; `view`, and
/// every `NginxDirective`, read them by address, so whoever holds directives holds the
/// configuration too (`NginxServer` does).
final class NginxConfig: Sendable {
    /// Every file read, as findings name it, by the index its directives carry.
    let displayPaths: [String]
    /// The pinned copies the view reads: every directive (each block's contents right after
    /// it), and each file's words and bytes.
    private let pinned:
        (entries: PinnedArray<NginxEntry>, files: PinnedArray<NginxConfigView.File>, words: [PinnedArray<SourceWord>], bytes: [PinnedArray<UInt8>])
    /// The pinned storage by address: reading through it counts no references.
    let view: NginxConfigView

    /// Takes `files` over: each file's words and bytes are freed once pinned, so a large
    /// configuration is not held twice.
    init(files: consuming [NginxParsedFile], entries: consuming [NginxEntry]) {
        let displayPaths = files.map(\.displayPath)
        self.displayPaths = displayPaths
        var words: [PinnedArray<SourceWord>] = []
        var bytes: [PinnedArray<UInt8>] = []
        for index in files.indices {
            words.append(PinnedArray(files[index].words))
            bytes.append(PinnedArray(files[index].bytes))
            files[index] = NginxParsedFile(displayPath: "", bytes: [])
        }
        let fileViews = PinnedArray(
            displayPaths.indices.map { NginxConfigView.File(words: words[$0].view, bytes: bytes[$0].view, displayPath: displayPaths[$0]) })
        let pinnedEntries = PinnedArray(entries)
        entries = []
        pinned = (pinnedEntries, fileViews, words, bytes)
        view = NginxConfigView(entries: pinnedEntries.view, files: fileViews.view)
    }

    var entryCount: Int { view.entries.count }

    /// The directives at the top level (outside any block).
    var directives: [NginxDirective] {
        Array(NginxDirective.Children(view: view, range: 0..<entryCount))
    }
}
