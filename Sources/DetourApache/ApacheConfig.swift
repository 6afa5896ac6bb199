import DetourDiagnostics
import DetourProxyCore
import Foundation

/// The configuration as `apache2 -f main.conf` reads it: includes spliced in where they
/// stand (paths and globs from ServerRoot), `Define` and `${VAR}` applied, `<IfModule>` and
/// `<IfDefine>` decided, every other section kept with what is inside it.
struct ApacheConfig: Sendable {
    var directives: [ApacheDirective] = []
    var diagnostics: [Diagnostic] = []
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
        let directives = reader.read(main.path, display: display, depth: 0)
        var config = ApacheConfig(directives: directives, diagnostics: reader.diagnostics, files: reader.files, serverRoot: reader.serverRoot)
        if reader.files.isEmpty { config.files = [display] }
        return config
    }
}

/// Reads files into directives; state that Apache keeps while it reads (defines, modules,
/// ServerRoot) lives here.
struct ApacheReader {
    var environment: [String: String]
    var serverRoot: String
    var defines: [String: String] = [:]
    var modules = Set<String>()
    var diagnostics: [Diagnostic] = []
    var files: [String] = []
    private var reading: [String] = []

    init(environment: [String: String], serverRoot: String) {
        self.environment = environment
        self.serverRoot = serverRoot
    }

    mutating func read(_ path: String, display: String, depth: Int) -> [ApacheDirective] {
        let identity = (path as NSString).standardizingPath
        files.append(display)
        let bytes: [UInt8]
        switch FileBytes.read(path, limit: 64 << 20) {
        case .success(let contents): bytes = contents.bytes
        case .failure(let failure):
            diagnostics.append(.error("apache.syntax", "cannot read '\(display)': \(failure.reason)", at: SourceLocation(path: display)))
            return []
        }
        if let nul = bytes.firstIndex(of: 0) {
            let line = bytes[..<nul].reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            diagnostics.append(.error("apache.syntax", "'\(display)' holds a NUL byte: not a text configuration", at: SourceLocation(path: display, line: line)))
            return []
        }
        reading.append(identity)
        defer { reading.removeLast() }
        let lines = ApacheLexer(path: display).lines(bytes)
        // Open sections: the section, and whether what is inside applies.
        var stack: [(section: ApacheDirective, active: Bool)] = []
        var top: [ApacheDirective] = []
        func append(_ directive: ApacheDirective) {
            if stack.isEmpty { top.append(directive) } else { stack[stack.count - 1].section.children!.append(directive) }
        }
        for line in lines {
            let active = stack.allSatisfy(\.active)
            let words = active && line.words.contains(where: { $0.utf8.contains(UInt8(ascii: "$")) }) ? line.words.map(expand) : line.words
            guard let first = words.first else { continue }
            if first.hasPrefix("</") {
                let name = String(first.dropFirst(2).prefix { $0 != ">" }).lowercased()
                guard let open = stack.popLast() else {
                    diagnostics.append(.error("apache.syntax", "'\(first)' closes no section: Apache refuses the file ('\(first) without matching <\(name)> section')", at: line.location))
                    continue
                }
                if open.section.name != name {
                    diagnostics.append(.error("apache.syntax", "'\(first)' closes <\(open.section.name)>: Apache refuses the file ('Expected </\(open.section.name)> but saw </\(name)>')", at: line.location, notes: [.init("the section opens here", at: open.section.location)]))
                }
                if open.active, stack.allSatisfy(\.active), !Self.conditionals.contains(open.section.name) {
                    append(open.section)
                } else if open.active, stack.allSatisfy(\.active) {
                    for child in open.section.children ?? [] { append(child) }
                }
                continue
            }
            if first.hasPrefix("<") {
                var arguments = Array(words.dropFirst())
                var name = String(first.dropFirst())
                if arguments.isEmpty, name.hasSuffix(">") {
                    name.removeLast()
                } else if let last = arguments.last, last.hasSuffix(">") {
                    arguments[arguments.count - 1] = String(last.dropLast())
                    if arguments.last!.isEmpty { arguments.removeLast() }
                } else {
                    diagnostics.append(.error("apache.syntax", "<\(name) directive missing closing '>': Apache refuses the file", at: line.location))
                }
                name = name.lowercased()
                let section = ApacheDirective(name: name, arguments: arguments, location: line.location, children: [])
                let tooDeep = stack.count == ApacheConfig.sectionDepth
                if tooDeep {
                    diagnostics.append(.error("apache.section-depth", "sections nest deeper than \(ApacheConfig.sectionDepth) here: detour does not read what lies deeper", at: line.location))
                }
                stack.append((section, active && !tooDeep && stack.count < ApacheConfig.sectionDepth && evaluate(name, arguments)))
                continue
            }
            guard active else { continue }
            let name = Self.lowercased(first)
            let arguments = Array(words.dropFirst())
            switch name {
            case "define" where !arguments.isEmpty:
                defines[arguments[0]] = arguments.count > 1 ? arguments[1] : ""
            case "undefine" where !arguments.isEmpty:
                defines[arguments[0]] = nil
            case "serverroot" where !arguments.isEmpty:
                serverRoot = arguments[0]
            case "loadmodule" where !arguments.isEmpty:
                modules.insert(arguments[0])
            case "include", "includeoptional":
                guard depth < ApacheConfig.includeDepth else {
                    diagnostics.append(.error("apache.syntax", "includes nest deeper than \(ApacheConfig.includeDepth): Apache stops ('Exceeded the maximum include directory nesting level')", at: line.location))
                    continue
                }
                for directive in include(arguments.first ?? "", optional: name == "includeoptional", at: line.location, depth: depth) { append(directive) }
                continue
            default:
                break
            }
            append(ApacheDirective(name: name, arguments: arguments, location: line.location, children: nil))
        }
        for open in stack.reversed() {
            diagnostics.append(.error("apache.syntax", "<\(open.section.name)> is not closed in this file: Apache refuses it ('<\(open.section.name)> was not closed')", at: open.section.location))
        }
        return top
    }

    /// Directive names are ASCII: lowercased without Unicode's tables, the common case
    /// (already lowercase or short) without building a new string.
    static func lowercased(_ name: String) -> String {
        guard name.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) else { return name }
        return String(decoding: name.utf8.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 + 32 : $0 }, as: UTF8.self)
    }

    static let conditionals: Set<String> = ["ifmodule", "ifdefine", "ifversion", "ifdirective", "iffile", "ifsection"]

    /// Whether what a conditional section holds applies; any other section applies.
    private func evaluate(_ name: String, _ arguments: [String]) -> Bool {
        guard Self.conditionals.contains(name), let argument = arguments.first else { return true }
        let negated = argument.hasPrefix("!")
        let subject = negated ? String(argument.dropFirst()) : argument
        let value: Bool
        switch name {
        case "ifdefine": value = defines[subject] != nil
        // A fragment that loads no module is read as if the modules it asks about were loaded.
        case "ifmodule": value = modules.isEmpty || modules.contains(subject) || modules.contains(Self.moduleName(ofSource: subject))
        case "iffile": value = FileManager.default.fileExists(atPath: subject.hasPrefix("/") ? subject : serverRoot + "/" + subject)
        default: value = true
        }
        return value != negated
    }

    /// `mod_proxy.c` → `proxy_module`.
    static func moduleName(ofSource source: String) -> String {
        guard source.hasPrefix("mod_"), source.hasSuffix(".c") else { return source }
        return String(source.dropFirst(4).dropLast(2)) + "_module"
    }

    /// `${NAME}` from Define, then the environment; an unknown name stays as written, as Apache keeps it.
    private func expand(_ word: String) -> String {
        guard word.utf8.contains(UInt8(ascii: "$")), word.contains("${") else { return word }
        var result = ""
        var rest = Substring(word)
        while let open = rest.range(of: "${") {
            result += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].firstIndex(of: "}") else {
                result += rest[open.lowerBound...]
                return result
            }
            let name = String(rest[open.upperBound..<close])
            result += defines[name] ?? environment[name] ?? "${\(name)}"
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// The directives of every file an Include names: a file, a folder (its files in order) or
    /// a glob, from ServerRoot when relative.
    private mutating func include(_ pattern: String, optional: Bool, at location: SourceLocation, depth: Int) -> [ApacheDirective] {
        let path = pattern.hasPrefix("/") ? pattern : serverRoot + "/" + pattern
        var matches: [String]
        if FileGlob.hasWildcard(path) {
            matches = FileGlob.matches(path)
            if matches.isEmpty, !optional {
                diagnostics.append(.error("apache.syntax", "Include '\(pattern)' matches no file: Apache refuses to start (use IncludeOptional for a folder that may be empty)", at: location))
            }
        } else {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                if !optional { diagnostics.append(.error("apache.syntax", "Include '\(pattern)' names no file (\(path)): Apache refuses to start", at: location)) }
                return []
            }
            matches = isFolder.boolValue ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map { path + "/" + $0 } : [path]
        }
        var directives: [ApacheDirective] = []
        for match in matches.map({ ($0 as NSString).standardizingPath }) {
            var isFolder: ObjCBool = false
            FileManager.default.fileExists(atPath: match, isDirectory: &isFolder)
            if isFolder.boolValue {
                directives += include(match + "/*", optional: true, at: location, depth: depth + 1)
            } else if reading.contains((match as NSString).standardizingPath) {
                diagnostics.append(.error("apache.syntax", "this Include reads a file that is already being read, which includes it again: Apache stops ('Exceeded the maximum include directory nesting level')", at: location))
            } else {
                // Named as the main file is: from the folder detour runs in when inside it.
                let here = FileManager.default.currentDirectoryPath + "/"
                let display = match.hasPrefix(here) ? String(match.dropFirst(here.count)) : match
                directives += read(match, display: display, depth: depth + 1)
            }
        }
        return directives
    }
}
