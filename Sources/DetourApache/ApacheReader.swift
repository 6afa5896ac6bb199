import DetourDiagnostics
import DetourProxyCore
import DetourSupport
import Foundation

/// Reads files into the flat store; state that Apache keeps while it reads (defines, modules,
/// ServerRoot) lives here.
struct ApacheReader {
    var environment: [String: String]
    var serverRoot: String
    var defines: [String: String] = [:]
    var modules = Set<String>()
    /// Each directive read, for `refuseUnknownDirectives`: its name by a hash of its bytes
    /// (`<` first for a section), and where it stands; each name is made a string once.
    private var directivesRead: [(name: UInt64, file: Int32, word: Int32)] = []
    private var directiveNames: [UInt64: String] = [:]
    var diagnostics: [Diagnostic] = []
    /// Refusals of one directive's words (an unknown name, an Options word): the files' shape
    /// stands, so the model is still read for the refusals it finds.
    var directiveRefusals: [Diagnostic] = []
    var files: [String] = []
    private(set) var sources: [SourceBuffer] = []
    /// Where each of `sources` is on disk.
    private(set) var paths: [String] = []
    private(set) var entries: [FlatEntry<ApacheName>] = []
    /// The files open, by device and inode: a file that includes itself, under any path, is a loop.
    private var reading: [String] = []
    /// The folders whose files are being read, by device and inode.
    private var expanding: [String] = []
    /// The folder detour runs in, with a final `/`: files inside it are named from there.
    private let workingFolder = FileManager.default.currentDirectoryPath + "/"

    /// A section open while its file is read.
    private struct OpenSection {
        /// Lowercased, as Apache compares it with the closing tag.
        var name: String
        /// Where it lies in `entries`; nil when not kept (a conditional, or inside a dropped one).
        var entry: Int?
        /// Whether what is inside applies (every section around it applying too).
        var active: Bool
        var location: SourceLocation
    }

    init(environment: [String: String], serverRoot: String) {
        self.environment = environment
        self.serverRoot = serverRoot
    }

    /// A file read and split into lines before its turn: the files of a glob are read on all
    /// cores, then spliced in one after another.
    struct Prefetched: Sendable {
        var text: Result<FileBytes.Contents, ConfigurationText.Failure>
        var lexed: ApacheLexer.Lines?

        init(_ path: String, display: String) {
            text = ConfigurationText.read(path, display: display, rule: ApacheRules.syntax.id)
            lexed = (try? text.get()).map { ApacheLexer().lines($0.bytes, display: display) }
        }
    }

    /// Appends the file's directives to `entries`, includes spliced in where they stand.
    /// `includedAt`: the Include that names the file (a folder there is read file by file).
    mutating func read(_ path: String, display: String, depth: Int, includedAt: SourceLocation? = nil, prefetched: Prefetched? = nil) {
        let contents: FileBytes.Contents
        switch prefetched?.text ?? ConfigurationText.read(path, display: display, rule: ApacheRules.syntax.id) {
        case .success(let read): contents = read
        case .failure(let failure) where failure.isFolder && includedAt != nil:
            includeFolder(path, at: includedAt!, depth: depth)
            return
        case .failure(let failure):
            files.append(display)
            diagnostics.append(failure.diagnostic)
            return
        }
        // The same file (device and inode, whatever the path) already open further up.
        if let includedAt, reading.contains(contents.identity) {
            diagnostics.append(
                .error(
                    ApacheRules.syntax.id,
                    "this Include reads a file that is already being read, which includes it again: Apache stops ('Exceeded the maximum include directory nesting level')",
                    at: includedAt))
            return
        }
        files.append(display)
        let bytes = contents.bytes
        reading.append(contents.identity)
        defer { reading.removeLast() }
        let lexed = prefetched?.lexed ?? ApacheLexer().lines(bytes, display: display)
        var source = lexed.source
        // Files included from here are stored after this one, which is stored once read.
        let file = sources.count
        sources.append(SourceBuffer(displayPath: display, bytes: []))
        paths.append(path)
        defer { sources[file] = source }
        var stack: [OpenSection] = []
        // Room for the file's directives at once (doubling, as included files add theirs).
        if entries.capacity < entries.count + lexed.lines.count {
            entries.reserveCapacity(max(entries.count + lexed.lines.count, entries.capacity * 2))
        }
        for (number, line) in lexed.lines.enumerated() {
            let active = stack.last?.active ?? true
            if active, lexed.hasDollar[number] { expandVariables(line, in: &source) }
            let first = source.words[Int(line.lowerBound)]
            var location: SourceLocation { source.location(of: first) }
            let lead = first.length > 0 ? source.bytes[Int(first.start)] : 0
            let second = first.length > 1 ? source.bytes[Int(first.start) + 1] : 0
            if lead == UInt8(ascii: "<"), second == UInt8(ascii: "/") {
                let written = source.apacheValue(first)
                let name = Self.sectionName(source.bytes[first.byteRange].dropFirst(2))
                guard let open = stack.popLast() else {
                    diagnostics.append(
                        .error(
                            ApacheRules.syntax.id, "'\(written)' closes no section: Apache refuses the file ('\(written) without matching <\(name)> section')",
                            at: location))
                    continue
                }
                if open.name != name {
                    diagnostics.append(
                        .error(
                            ApacheRules.syntax.id,
                            "'\(written)' closes <\(open.name)>: Apache refuses the file ('Expected </\(open.name)> but saw </\(name)>')", at: location,
                            notes: [.init("the section opens here", at: open.location)]))
                }
                if let entry = open.entry { entries[entry].end = Int32(entries.count) }
                continue
            }
            if lead == UInt8(ascii: "<") {
                var nameWord = first
                nameWord.start += 1
                nameWord.length -= 1
                var count = line.count
                let lastIndex = Int(line.upperBound) - 1
                if count == 1, source.bytes[nameWord.byteRange].last == UInt8(ascii: ">") {
                    nameWord.length -= 1
                } else if count > 1, source.bytes[source.words[lastIndex].byteRange].last == UInt8(ascii: ">") {
                    source.words[lastIndex].length -= 1
                    if source.words[lastIndex].length == 0 { count -= 1 }
                } else {
                    diagnostics.append(
                        .error(ApacheRules.syntax.id, "<\(source.apacheValue(nameWord)) directive missing closing '>': Apache refuses the file", at: location))
                }
                source.words[Int(line.lowerBound)] = nameWord
                let name = Self.sectionName(source.bytes[nameWord.byteRange])
                let known = source.bytes.withUnsafeBufferPointer { ApacheName(UnsafeBufferPointer(rebasing: $0[nameWord.byteRange])) }
                let location = location
                let tooDeep = stack.count == ApacheConfig.sectionDepth
                if tooDeep {
                    diagnostics.append(
                        .error(
                            ApacheRules.sectionDepth.id, "sections nest deeper than \(ApacheConfig.sectionDepth) here: detour does not read what lies deeper",
                            at: location))
                }
                if active { refuseUnknown(nameWord, at: line.lowerBound, of: source, file: file, section: true) }
                let argument = count > 1 ? source.apacheValue(source.words[Int(line.lowerBound) + 1]) : nil
                let applies = active && !tooDeep && stack.count < ApacheConfig.sectionDepth && evaluate(known, argument)
                var entry: Int?
                if applies, known?.isConditional != true {
                    entry = entries.count
                    entries.append(FlatEntry(file: Int32(file), firstWord: line.lowerBound, wordCount: Int32(count), end: 0, name: known, isBlock: true))
                }
                stack.append(OpenSection(name: name, entry: entry, active: applies, location: location))
                continue
            }
            guard active else { continue }
            let name = source.bytes.withUnsafeBufferPointer { ApacheName(UnsafeBufferPointer(rebasing: $0[first.byteRange])) }
            refuseUnknown(first, at: line.lowerBound, of: source, file: file, section: false)
            let entry = FlatEntry(
                file: Int32(file), firstWord: line.lowerBound, wordCount: Int32(line.count), end: Int32(entries.count + 1), name: name, isBlock: false)
            func argument(_ index: Int) -> String? {
                index + 1 < line.count ? source.apacheValue(source.words[Int(line.lowerBound) + 1 + index]) : nil
            }
            switch name {
            case .define:
                if let key = argument(0) { defines[key] = argument(1) ?? "" }
            case .undefine:
                if let key = argument(0) { defines[key] = nil }
            case .serverroot:
                if let root = argument(0) { serverRoot = root }
            case .loadmodule:
                if let module = argument(0) { modules.insert(module) }
            case .options, .allowoverride:
                let words = (0..<(line.count - 1)).compactMap(argument)
                let table = ApacheDirectiveTable.shared
                if let refusal = name == .options ? table.optionsRefusal(words) : table.overridesRefusal(words) {
                    directiveRefusals.append(
                        .error(
                            ApacheRules.syntax.id, "\(source.apacheValue(first)) \(words.joined(separator: " ")): Apache refuses the file ('\(refusal)')",
                            at: location))
                }
            case .include, .includeoptional:
                // The included files' directives follow in `entries`, as if written here.
                include(argument(0) ?? "", optional: name == .includeoptional, at: location, depth: depth)
                continue
            default:
                break
            }
            entries.append(entry)
        }
        for open in stack.reversed() {
            diagnostics.append(
                .error(
                    ApacheRules.syntax.id, "<\(open.name)> is not closed in this file: Apache refuses it ('<\(open.name)> was not closed')", at: open.location))
        }
    }

    /// A directive, to be looked up once every module is loaded (`refuseUnknownDirectives`).
    /// A configuration has a name on every line: a hash of its bytes, not a string, is kept.
    private mutating func refuseUnknown(_ word: SourceWord, at index: Int32, of source: SourceBuffer, file: Int, section: Bool) {
        var name: UInt64 = section ? 0x3c : 0xcbf2_9ce4_8422_2325
        for byte in source.bytes[word.byteRange] { name = (name ^ UInt64(byte)) &* 0x100_0000_01b3 }
        if directiveNames[name] == nil { directiveNames[name] = (section ? "<" : "") + source.apacheValue(word) }
        directivesRead.append((name, Int32(file), index))
    }

    /// The directives no loaded module adds: Apache refuses to start at the first. LoadModule
    /// acts as the files are read and the other directives after, so a module loaded anywhere
    /// counts (what `<IfModule>` holds was decided by the modules loaded before it). A
    /// configuration that loads no module (a fragment) is read as if its modules were loaded.
    mutating func refuseUnknownDirectives() {
        defer { (directivesRead, directiveNames) = ([], [:]) }
        guard !modules.isEmpty else { return }
        // Each name is looked up once; the directives are gone through only if one is refused.
        let refused = directiveNames.compactMapValues { ApacheDirectiveTable.shared.missingModules(for: $0, loaded: modules) }
        guard !refused.isEmpty else { return }
        for (name, file, word) in directivesRead {
            guard let missing = refused[name] else { continue }
            let written = directiveNames[name] ?? ""
            let location = sources[Int(file)].location(of: sources[Int(file)].words[Int(word)])
            let words = "Invalid command '\(written)', perhaps misspelled or defined by a module not included in the server configuration"
            let what =
                missing.isEmpty
                ? "'\(written)' is no directive of Apache or of the modules loaded"
                : "'\(written)' needs \(missing.joined(separator: " or ")), which is not loaded"
            let fix = missing.first.map { module in
                Diagnostic.Note("fix: load it (on Debian: a2enmod \(module.hasSuffix("_module") ? String(module.dropLast("_module".count)) : module))")
            }
            directiveRefusals.append(
                .error(ApacheRules.syntax.id, "\(what): Apache refuses to start ('\(words)')", at: location, notes: fix.map { [$0] } ?? []))
        }
    }

    /// A section's name as Apache compares it: ASCII letters lowercased, up to a `>`.
    private static func sectionName(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.prefix { $0 != UInt8(ascii: ">") }.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// `${NAME}` in the line's words, from Define, then the environment: an expanded value is
    /// stored after the file's bytes and the word points there.
    private func expandVariables(_ line: Range<Int32>, in source: inout SourceBuffer) {
        for index in line.map(Int.init) {
            let word = source.words[index]
            guard source.bytes[word.byteRange].contains(UInt8(ascii: "$")) else { continue }
            let written = source.apacheValue(word)
            let value = expand(written)
            guard value != written else { continue }
            source.words[index].start = Int32(source.bytes.count)
            source.words[index].length = Int32(value.utf8.count)
            source.words[index].hasEscapes = false
            source.bytes += value.utf8
        }
    }

    /// Whether what a conditional section holds applies; any other section applies.
    private func evaluate(_ name: ApacheName?, _ argument: String?) -> Bool {
        guard let name, name.isConditional, let argument else { return true }
        let negated = argument.hasPrefix("!")
        let subject = negated ? String(argument.dropFirst()) : argument
        let value: Bool
        switch name {
        case .ifdefine: value = defines[subject] != nil
        // A fragment that loads no module is read as if the modules it asks about were loaded.
        case .ifmodule: value = modules.isEmpty || modules.contains(subject) || modules.contains(Self.moduleName(ofSource: subject))
        case .ifdirective: value = modules.isEmpty || ApacheDirectiveTable.shared.isAvailable(subject, loaded: modules)
        case .iffile: value = FileManager.default.fileExists(atPath: subject.hasPrefix("/") ? subject : serverRoot + "/" + subject)
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
        guard word.contains("${") else { return word }
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

    /// Reads every file an Include names: a file, a folder (its files in order) or a glob,
    /// from ServerRoot when relative.
    private mutating func include(_ pattern: String, optional: Bool, at location: SourceLocation, depth: Int) {
        guard depth < ApacheConfig.includeDepth else {
            return nestingTooDeep(at: location)
        }
        let path = pattern.hasPrefix("/") ? pattern : serverRoot + "/" + pattern
        var matches: [String]
        if FileGlob.hasWildcard(path) {
            matches = FileGlob.matches(path)
            if matches.isEmpty, !optional {
                diagnostics.append(
                    .error(
                        ApacheRules.syntax.id,
                        "Include '\(pattern)' matches no file: Apache refuses to start (use IncludeOptional for a folder that may be empty)", at: location))
            }
        } else {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                if !optional {
                    diagnostics.append(.error(ApacheRules.syntax.id, "Include '\(pattern)' names no file (\(path)): Apache refuses to start", at: location))
                }
                return
            }
            guard !isFolder.boolValue else { return includeFolder(path, at: location, depth: depth) }
            matches = [path]
        }
        let files = matches.map(Self.normalized).map { ($0, displayName($0)) }
        let prefetched = files.count > 1 ? files.concurrentMap { Prefetched($0.0, display: $0.1) } : []
        for (index, (file, display)) in files.enumerated() {
            read(file, display: display, depth: depth + 1, includedAt: location, prefetched: prefetched.isEmpty ? nil : prefetched[index])
        }
    }

    private mutating func nestingTooDeep(at location: SourceLocation) {
        diagnostics.append(
            .error(
                ApacheRules.syntax.id,
                "includes nest deeper than \(ApacheConfig.includeDepth): Apache stops ('Exceeded the maximum include directory nesting level')", at: location))
    }

    /// An included file named as the main file is: from the folder detour runs in when inside it.
    private func displayName(_ path: String) -> String {
        path.hasPrefix(workingFolder) ? String(path.dropFirst(workingFolder.count)) : path
    }

    /// The files of a folder, in order, and of its subfolders. A folder that a link leads back
    /// into while it is read is a loop: each pass would read it again, twice as often.
    private mutating func includeFolder(_ path: String, at location: SourceLocation, depth: Int) {
        let identity = FileBytes.identity(path)
        if let identity, expanding.contains(identity) {
            diagnostics.append(
                .error(
                    ApacheRules.syntax.id,
                    "this Include reaches the folder '\(path)' again through a link while reading it: Apache stops ('Exceeded the maximum include directory nesting level')",
                    at: location))
            return
        }
        guard depth < ApacheConfig.includeDepth else {
            return nestingTooDeep(at: location)
        }
        if let identity { expanding.append(identity) }
        defer { if identity != nil { expanding.removeLast() } }
        // Every entry, hidden ones too, as Apache reads a folder (a glob's `*` leaves them out).
        let folder = Self.normalized(path)
        for name in ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted() {
            let file = folder + "/" + name
            read(file, display: displayName(file), depth: depth + 1, includedAt: location)
        }
    }

    /// `a/./b//../c` → `a/c`, by the words of the path alone: symbolic links are the file
    /// system's business, and looking at each would cost thousands of calls.
    static func normalized(_ path: String) -> String {
        // The common case, a clean path as glob gives it: no `//`, no part starting with `.`,
        // no `/` at the end.
        var previous: UInt8 = 0
        let clean = !path.utf8.contains { byte in
            defer { previous = byte }
            return previous == UInt8(ascii: "/") && (byte == UInt8(ascii: "/") || byte == UInt8(ascii: "."))
        }
        if clean, path.utf8.count < 2 || path.utf8.last != UInt8(ascii: "/") { return path }
        var parts: [Substring] = []
        for part in path.split(separator: "/") where part != "." {
            if part == "..", let last = parts.last, last != ".." { parts.removeLast() } else if part != ".." || !path.hasPrefix("/") { parts.append(part) }
        }
        return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    }
}
