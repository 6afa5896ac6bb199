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

    private let main: URL
    private let mainDisplay: String
    private let prefixPath: String
    private let displayPrefix: String

    /// - Parameters:
    ///   - main: the main configuration file.
    ///   - displayPath: how the main file is named in diagnostics.
    public init(main: URL, displayPath: String) {
        self.main = main
        mainDisplay = displayPath
        prefixPath = main.deletingLastPathComponent().path
        displayPrefix = (displayPath as NSString).deletingLastPathComponent
    }

    public func load() -> Result {
        let session = Session(prefixPath: prefixPath, displayPrefix: displayPrefix)
        session.result.directives = session.read(main.path, displayPath: mainDisplay, includedFrom: nil, chain: [])
        return session.result
    }

    /// One load: what was found, and caches so a file included many times (`fastcgi_params`
    /// in every PHP location) is read, parsed and globbed once.
    private final class Session {
        let prefixPath: String
        let displayPrefix: String
        var result = Result(directives: [], files: [], diagnostics: [])
        /// Real path → the file's directives before its own includes are expanded.
        var parsed: [String: [ConfigDirective]] = [:]
        /// Include pattern → the files it names, with their display paths.
        var matched: [String: [(path: String, display: String)]] = [:]
        /// Path as named → real path, for cycle detection without a system call per include.
        var realPaths: [String: String] = [:]

        init(prefixPath: String, displayPrefix: String) {
            self.prefixPath = prefixPath
            self.displayPrefix = displayPrefix
        }

        func read(_ path: String, displayPath: String, includedFrom: SourceLocation?, chain: [String]) -> [ConfigDirective] {
            let resolved = realPaths[path] ?? Self.realPath(path)
            realPaths[path] = resolved
            let here = includedFrom ?? SourceLocation(path: displayPath)
            if chain.contains(resolved) {
                result.diagnostics.append(.error("nginx.include-cycle", "'\(displayPath)' includes itself through this chain; nginx would never finish reading", at: here))
                return []
            }
            if chain.count >= NginxConfigLoader.maximumIncludeDepth {
                result.diagnostics.append(.error("nginx.include-depth", "includes nest more than \(NginxConfigLoader.maximumIncludeDepth) levels deep", at: here))
                return []
            }
            var directives: [ConfigDirective]
            if let known = parsed[resolved] {
                directives = known
            } else {
                guard let data = FileManager.default.contents(atPath: path) else {
                    let reason = FileManager.default.fileExists(atPath: path) ? "it cannot be read" : "no such file"
                    result.diagnostics.append(.error("nginx.include-missing", "cannot open '\(displayPath)': \(reason)", at: here))
                    return []
                }
                result.files.append(displayPath)
                var lexer = NginxLexer([UInt8](data), path: displayPath)
                let (tokens, unterminated) = lexer.tokens()
                let (tree, parseDiagnostics) = NginxParser(path: displayPath).parse(tokens, end: (lexer.endLine, lexer.endColumn), unterminatedQuote: unterminated)
                result.diagnostics += lexer.diagnostics + parseDiagnostics
                parsed[resolved] = tree
                directives = tree
            }
            expandIncludes(&directives, chain: chain + [resolved])
            return directives
        }

        /// Replaces each `include` with the directives of the files it names, in place, so
        /// blocks without includes are not copied.
        func expandIncludes(_ directives: inout [ConfigDirective], chain: [String]) {
            var index = 0
            while index < directives.count {
                if directives[index].name == "include", directives[index].block == nil {
                    let directive = directives[index]
                    var replacement: [ConfigDirective] = []
                    if directive.arguments.count == 1, let pattern = directive.arguments.first?.value {
                        if matched[pattern] == nil { matched[pattern] = matches(pattern) }
                        for file in matched[pattern] ?? [] {
                            replacement += read(file.path, displayPath: file.display, includedFrom: directive.location, chain: chain)
                        }
                    } else {
                        result.diagnostics.append(.error("nginx.syntax", "invalid number of arguments in \"include\" directive", at: directive.location))
                    }
                    directives.replaceSubrange(index...index, with: replacement)
                    index += replacement.count
                    continue
                }
                if let block = directives[index].block, Self.containsInclude(block) {
                    expandIncludes(&directives[index].block!, chain: chain)
                }
                index += 1
            }
        }

        /// Files an include pattern names, sorted as nginx's glob returns them.
        func matches(_ pattern: String) -> [(path: String, display: String)] {
            let isAbsolute = pattern.hasPrefix("/")
            let full = isAbsolute ? pattern : prefixPath + "/" + pattern
            func display(_ path: String) -> String {
                if isAbsolute { return path }
                let relative = String(path.dropFirst(prefixPath.count + 1))
                let joined = displayPrefix.isEmpty ? relative : displayPrefix + "/" + relative
                return DisplayPath.normalize(joined) ?? joined
            }
            guard pattern.contains(where: { $0 == "*" || $0 == "?" || $0 == "[" }) else {
                return [(full, display(full))]
            }
            var globbed = glob_t()
            defer { globfree(&globbed) }
            guard glob(full, 0, nil, &globbed) == 0 else { return [] }
            return (0..<Int(globbed.gl_pathc)).compactMap { index in
                guard let pointer = globbed.gl_pathv[index] else { return nil }
                let path = String(cString: pointer)
                return (path, display(path))
            }
        }

        static func containsInclude(_ directives: [ConfigDirective]) -> Bool {
            directives.contains { $0.name == "include" || ($0.block.map(containsInclude) ?? false) }
        }

        static func realPath(_ path: String) -> String {
            guard let resolved = Glibc.realpath(path, nil) else { return path }
            defer { free(resolved) }
            return String(cString: resolved)
        }
    }
}
