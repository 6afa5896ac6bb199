import DetourDiagnostics
import Foundation

/// Reads an nginx configuration the way nginx does: the main file, then every `include`
/// spliced in where it stands. Relative include paths start at the main file's folder (nginx's
/// configuration prefix); glob patterns may match nothing, plain paths must exist. Include
/// cycles, unreadable files and syntax errors become diagnostics, never a crash.
public struct NginxConfigLoader {
    public struct Result {
        public var directives: [ConfigDirective]
        /// Every file read, as displayed, in reading order.
        public var files: [String]
        public var diagnostics: [Diagnostic]
    }

    /// Deeper include chains than this are taken as a mistake.
    static let maximumIncludeDepth = 32

    private let prefix: URL
    private let displayPrefix: String

    /// - Parameters:
    ///   - main: the main configuration file.
    ///   - displayPath: how the main file is named in diagnostics.
    public init(main: URL, displayPath: String) {
        prefix = main.deletingLastPathComponent()
        let folder = (displayPath as NSString).deletingLastPathComponent
        displayPrefix = folder
    }

    public func load(_ main: URL, displayPath: String) -> Result {
        var result = Result(directives: [], files: [], diagnostics: [])
        result.directives = read(main, displayPath: displayPath, includedFrom: nil, chain: [], into: &result)
        return result
    }

    private func read(_ file: URL, displayPath: String, includedFrom: SourceLocation?, chain: [String], into result: inout Result) -> [ConfigDirective] {
        let resolved = file.resolvingSymlinksInPath().path
        let here = includedFrom ?? SourceLocation(path: displayPath)
        if chain.contains(resolved) {
            result.diagnostics.append(.error("nginx.include-cycle", "'\(displayPath)' includes itself through this chain; nginx would never finish reading", at: here))
            return []
        }
        if chain.count >= Self.maximumIncludeDepth {
            result.diagnostics.append(.error("nginx.include-depth", "includes nest more than \(Self.maximumIncludeDepth) levels deep", at: here))
            return []
        }
        guard let data = FileManager.default.contents(atPath: file.path) else {
            let reason = FileManager.default.fileExists(atPath: file.path) ? "it cannot be read" : "no such file"
            result.diagnostics.append(.error("nginx.include-missing", "cannot open '\(displayPath)': \(reason)", at: here))
            return []
        }
        result.files.append(displayPath)
        var lexer = NginxLexer([UInt8](data), path: displayPath)
        let (tokens, unterminated) = lexer.tokens()
        let (directives, parseDiagnostics) = NginxParser(path: displayPath).parse(tokens, end: (lexer.endLine, lexer.endColumn), unterminatedQuote: unterminated)
        result.diagnostics += lexer.diagnostics + parseDiagnostics
        return expandIncludes(directives, chain: chain + [resolved], into: &result)
    }

    private func expandIncludes(_ directives: [ConfigDirective], chain: [String], into result: inout Result) -> [ConfigDirective] {
        var expanded: [ConfigDirective] = []
        expanded.reserveCapacity(directives.count)
        for directive in directives {
            if directive.name == "include", directive.block == nil {
                guard directive.arguments.count == 1, let pattern = directive.arguments.first?.value else {
                    result.diagnostics.append(.error("nginx.syntax", "invalid number of arguments in \"include\" directive", at: directive.location))
                    continue
                }
                for (url, display) in matches(pattern, at: directive.location, into: &result) {
                    expanded += read(url, displayPath: display, includedFrom: directive.location, chain: chain, into: &result)
                }
            } else if let block = directive.block {
                var copy = directive
                copy.block = expandIncludes(block, chain: chain, into: &result)
                expanded.append(copy)
            } else {
                expanded.append(directive)
            }
        }
        return expanded
    }

    /// Files an include pattern names, sorted as nginx's glob returns them.
    private func matches(_ pattern: String, at location: SourceLocation, into result: inout Result) -> [(URL, String)] {
        let isAbsolute = pattern.hasPrefix("/")
        let full = isAbsolute ? pattern : prefix.path + "/" + pattern
        func display(_ path: String) -> String {
            if isAbsolute { return path }
            let relative = String(path.dropFirst(prefix.path.count + 1))
            return displayPrefix.isEmpty ? relative : displayPrefix + "/" + relative
        }
        guard pattern.contains(where: { "*?[".contains($0) }) else {
            return [(URL(fileURLWithPath: full), display(full))]
        }
        var globbed = glob_t()
        defer { globfree(&globbed) }
        guard glob(full, 0, nil, &globbed) == 0 else { return [] }
        return (0..<Int(globbed.gl_pathc)).compactMap { index in
            guard let pointer = globbed.gl_pathv[index] else { return nil }
            let path = String(cString: pointer)
            return (URL(fileURLWithPath: path), display(path))
        }
    }
}
