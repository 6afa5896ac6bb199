import DetourDiagnostics
import DetourProxyCore
import DetourSupport
import Foundation

/// A Caddyfile read as Caddy reads it: environment variables put in, words cut, imports
/// spliced, site blocks found. Reading stops at the first error, as Caddy's does.
struct CaddyConfig: Sendable {
    /// Each file read, as findings name it; filled while the Caddyfile is read.
    var files: SourceFiles
    var blocks: [CaddySiteBlock]
    var diagnostics: [Diagnostic]
    var version: CaddyVersionSource
    /// Each file read, where it is on disk, by the same index as `files`.
    var paths: [String] = []

    /// The site blocks: every block but a global options block written first.
    var sites: [CaddySiteBlock] {
        blocks.enumerated().filter { !($0.offset == 0 && $0.element.isGlobalOptions) }.map(\.element)
    }

    /// Caddy reads any size; past this detour reports the file instead of reading it.
    static let maximumFileSize = 256 << 20

    /// Imported files are named relative to the main file's folder as the user wrote it.
    /// `files` receives their names as they are read; `onSite` each site block as soon as it
    /// is closed, while the rest is read (reading stops at an error, and what was handed over
    /// before it is a guess).
    static func load(
        main: URL, displayPath: String, version: CaddyVersionSource = CaddyVersionSource(),
        environment: [String: String] = ProcessInfo.processInfo.environment,
        files names: SourceFiles = SourceFiles(), onSite: ((CaddySiteBlock) -> Void)? = nil
    ) -> CaddyConfig {
        var files: [(display: String, absolute: String)] = []
        let mainFolder = main.deletingLastPathComponent().standardizedFileURL.path
        let displayFolder = (displayPath as NSString).deletingLastPathComponent
        func display(_ absolute: String) -> String {
            guard absolute.hasPrefix(mainFolder + "/") else { return absolute }
            let relative = String(absolute.dropFirst(mainFolder.count + 1))
            return displayFolder.isEmpty ? relative : displayFolder + "/" + relative
        }
        func tokens(of path: String, shown: String) -> Result<CaddyParser.ReadFile, FileBytes.Failure> {
            FileBytes.read(path, limit: maximumFileSize).map { contents in
                files.append((shown, path))
                let file = names.append(shown)
                let lexed = CaddyLexer.tokens(
                    CaddyEnvironment.expand(contents.bytes, environment: environment), file: file, heredocs: { version.version.hasHeredocs })
                let failure = lexed.failure.map {
                    Diagnostic.error(CaddyRules.syntax.id, $0.message, at: SourceLocation(path: shown, line: $0.line, column: 1))
                }
                return CaddyParser.ReadFile(tokens: lexed.tokens, file: file, failure: failure)
            }
        }
        let mainPath = main.standardizedFileURL.path
        switch tokens(of: mainPath, shown: displayPath) {
        case .failure(let failure):
            let at = SourceLocation(path: displayPath, line: 1, column: 1)
            return CaddyConfig(
                files: names, blocks: [], diagnostics: [.error(CaddyRules.importFailed.id, "cannot open '\(displayPath)': \(reason(failure))", at: at)],
                version: version)
        case .success(let read):
            if let failure = read.failure { return CaddyConfig(files: names, blocks: [], diagnostics: [failure], version: version) }
            let parser = CaddyParser.parse(
                read.tokens, version: version, paths: { files[$0] },
                read: { path in
                    let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
                    return tokens(of: absolute, shown: display(absolute))
                }, onBlock: onSite.map { onSite in { block, index in if !(index == 0 && block.isGlobalOptions) { onSite(block) } } })
            return CaddyConfig(
                files: names, blocks: parser.blocks, diagnostics: parser.error.map { [$0] } ?? [], version: version, paths: files.map(\.absolute))
        }
    }

    static func reason(_ failure: FileBytes.Failure) -> String {
        failure.code == EFBIG ? "it is larger than \(maximumFileSize >> 20) MiB, more than detour reads in a Caddyfile" : failure.reason
    }
}
