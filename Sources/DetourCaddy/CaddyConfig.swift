import DetourDiagnostics
import Foundation

/// A Caddyfile read as Caddy reads it: environment variables put in, words cut, imports
/// spliced, site blocks found. Reading stops at the first error, as Caddy's does.
struct CaddyConfig: Sendable {
    /// Each file read, as findings name it.
    var files: [String]
    var blocks: [CaddySiteBlock]
    var diagnostics: [Diagnostic]

    /// Imported files are named relative to the main file's folder as the user wrote it.
    static func load(main: URL, displayPath: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> CaddyConfig {
        var files: [(display: String, absolute: String)] = []
        let mainFolder = main.deletingLastPathComponent().standardizedFileURL.path
        let displayFolder = (displayPath as NSString).deletingLastPathComponent
        func display(_ absolute: String) -> String {
            guard absolute.hasPrefix(mainFolder + "/") else { return absolute }
            let relative = String(absolute.dropFirst(mainFolder.count + 1))
            return displayFolder.isEmpty ? relative : displayFolder + "/" + relative
        }
        func tokens(of path: String, shown: String) -> Result<(tokens: [CaddyToken], file: Int), FileBytes.Failure> {
            FileBytes.read(path).map { contents in
                files.append((shown, path))
                return (CaddyLexer.tokens(CaddyEnvironment.expand(contents.bytes, environment: environment), file: files.count - 1), files.count - 1)
            }
        }
        let mainPath = main.standardizedFileURL.path
        switch tokens(of: mainPath, shown: displayPath) {
        case .failure(let failure):
            let at = SourceLocation(path: displayPath, line: 1, column: 1)
            return CaddyConfig(files: [], blocks: [], diagnostics: [.error("caddy.import", "cannot open '\(displayPath)': \(failure.reason)", at: at)])
        case .success(let read):
            let parser = CaddyParser.parse(read.tokens, paths: { files[$0] }, read: { path in
                let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
                return tokens(of: absolute, shown: display(absolute))
            })
            return CaddyConfig(files: files.map(\.display), blocks: parser.blocks, diagnostics: parser.error.map { [$0] } ?? [])
        }
    }
}
