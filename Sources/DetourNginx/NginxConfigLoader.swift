import DetourDiagnostics
import DetourProxyCore
import DetourSupport
import Foundation

/// Reads an nginx configuration the way nginx does: the main file, then every `include`
/// spliced in where it stands. Relative include paths start at the main file's folder (nginx's
/// configuration prefix), or for a site's file (server blocks at its top, read as an http
/// block's include) at the folder of the nginx.conf above it that would include it, as
/// `/etc/nginx/sites-enabled/app`'s start at `/etc/nginx`; glob patterns may match nothing,
/// plain paths must exist. Include
/// cycles, unreadable files and syntax errors become diagnostics, never a crash.
struct NginxConfigLoader {
    struct Result {
        var config: NginxConfig
        /// Every file read, as displayed, in reading order.
        var files: [String]
        /// The same files' paths on this machine.
        var paths: [String]
        /// The `include` lines, which the configuration's directives no longer hold.
        var includes: [NginxEntry]
        var diagnostics: [Diagnostic]
        /// Where relative includes start (nginx's configuration prefix).
        var prefixPath: String
        /// Whether the main file is a site's file (server blocks at its top, read as an http
        /// block's include), not a main file nginx runs by itself.
        var isSiteFile: Bool

        var directives: [NginxDirective] { config.directives }
    }

    /// Deeper include chains than this are taken as a mistake.
    static let maximumIncludeDepth = 32
    /// Includes that repeat includes multiply: past this many directives the rest is not read,
    /// so no configuration can exhaust memory.
    static let maximumDirectives = 10_000_000

    private let main: URL
    private let mainDisplay: String
    private let prefixPath: String
    private let displayPrefix: String

    /// - Parameters:
    ///   - main: the main configuration file.
    ///   - displayPath: how the main file is named in diagnostics.
    init(main: URL, displayPath: String) {
        self.main = main
        mainDisplay = displayPath
        prefixPath = main.deletingLastPathComponent().path
        displayPrefix = (displayPath as NSString).deletingLastPathComponent
    }

    func load() -> Result {
        let session = Session(prefixPath: prefixPath, displayPrefix: displayPrefix)
        let isSiteFile = session.startIncludesAtTheServersPrefix(ifSiteFile: main.path, displayPath: mainDisplay)
        var entries: [NginxEntry] = []
        session.include(main.path, displayPath: mainDisplay, includedFrom: nil, chain: [], into: &entries)
        // The configuration takes the files over: each is freed here once it is pinned there.
        let files = session.files
        session.files = []
        let config = NginxConfig(files: files, entries: entries)
        return Result(
            config: config, files: config.displayPaths, paths: session.paths, includes: session.includes, diagnostics: session.diagnostics,
            prefixPath: session.prefixPath, isSiteFile: isSiteFile)
    }

    /// One load: the files read, with caches so a file included many times (`fastcgi_params`
    /// in every PHP location) is read, parsed and globbed once.
    private final class Session {
        var prefixPath: String
        var displayPrefix: String
        var files: [NginxParsedFile] = []
        /// Each file's path, by the same index.
        var paths: [String] = []
        var includes: [NginxEntry] = []
        var diagnostics: [Diagnostic] = []
        /// File identity → the file's index in `files`, or nil when it could not be read.
        var fileIDs: [String: Int?] = [:]
        /// Include pattern → the files it names, with their display paths.
        var matched: [String: [(path: String, display: String)]] = [:]
        /// Path as named → file identity, for cycle detection without a system call per include.
        var identities: [String: String] = [:]
        var reportedTooMany = false
        /// Include directives (file, first word) that led back into their own chain. nginx
        /// never finishes reading such a configuration, so each is reported once and not
        /// followed again: `conf.d/*.conf` included from each of its files would otherwise
        /// be expanded once per ordering of those files.
        var cyclicIncludes = Set<[Int32]>()
        /// Each include that closes a cycle, reported once, by where its report is: a glob that
        /// includes its own folder closes a cycle with every file before it in the chain, and
        /// its report names the including file's own cycle.
        var reportedCycles: [SourceLocation: Int] = [:]

        init(prefixPath: String, displayPrefix: String) {
            self.prefixPath = prefixPath
            self.displayPrefix = displayPrefix
        }

        /// Where a site's file's relative includes start: the nearest folder, its own or one or
        /// two above, that holds an `nginx.conf` (its main file, which includes it). A file with
        /// `http` or `events` at its top is a main file, whose own folder is the prefix. Returns
        /// whether the file is a site's.
        func startIncludesAtTheServersPrefix(ifSiteFile path: String, displayPath: String) -> Bool {
            let identity = identity(of: path)
            guard let id = fileID(identity, path: path, displayPath: displayPath, includedFrom: SourceLocation(path: displayPath)) else { return false }
            let entries = files[id].entries
            var top: Set<NginxDirectiveName> = []
            var index = 0
            while index < entries.count {
                if let name = entries[index].name { top.insert(name) }
                index = max(Int(entries[index].end), index + 1)
            }
            guard top.isDisjoint(with: [.http, .events, .stream, .mail]), !top.isDisjoint(with: [.server, .upstream, .location]) else { return false }
            var folder = URL(fileURLWithPath: prefixPath)
            var display = displayPrefix
            for _ in 0..<3 {
                if FileManager.default.fileExists(atPath: folder.appendingPathComponent("nginx.conf").path) {
                    prefixPath = folder.path
                    displayPrefix = display
                    return true
                }
                folder.deleteLastPathComponent()
                let up = display.isEmpty ? ".." : display + "/.."
                display = DisplayPath.normalize(up) ?? up
            }
            return true
        }

        /// The file's identity (device and inode), asked of the file system once per path.
        private func identity(of path: String) -> String {
            let identity = identities[path] ?? FileBytes.identity(path) ?? path
            identities[path] = identity
            return identity
        }

        /// Appends the directives of the file at `path`, its own includes expanded. Returns
        /// false when the file is already in the chain: a cycle, reported here.
        @discardableResult
        func include(_ path: String, displayPath: String, includedFrom: SourceLocation?, chain: [Int], into output: inout [NginxEntry]) -> Bool {
            guard output.count < NginxConfigLoader.maximumDirectives else { return true }
            let identity = identity(of: path)
            let here = includedFrom ?? SourceLocation(path: displayPath)
            if let known = fileIDs[identity], let id = known, chain.contains(id) {
                let report = Diagnostic.error(
                    NginxRules.includeCycle.id, "'\(displayPath)' includes itself through this chain; nginx would never finish reading", at: here)
                if let index = reportedCycles[here] {
                    if displayPath == here.path { diagnostics[index] = report }
                } else {
                    reportedCycles[here] = diagnostics.count
                    diagnostics.append(report)
                }
                return false
            }
            if chain.count >= NginxConfigLoader.maximumIncludeDepth {
                diagnostics.append(.error(NginxRules.includeDepth.id, "includes nest more than \(NginxConfigLoader.maximumIncludeDepth) levels deep", at: here))
                return true
            }
            guard let fileID = fileID(identity, path: path, displayPath: displayPath, includedFrom: here) else { return true }
            let fileEntries = files[fileID].entries
            // A main file that includes nothing is the configuration as it stands: taken
            // whole, not copied entry by entry.
            if output.isEmpty {
                if fileEntries.count <= NginxConfigLoader.maximumDirectives, !fileEntries.contains(where: \.isInclude) {
                    output = fileEntries
                    return true
                }
                output.reserveCapacity(fileEntries.count)
            }
            splice(fileEntries, 0..<fileEntries.count, chain: chain + [fileID], into: &output)
            return true
        }

        /// The file's index, reading and parsing it the first time it is named.
        private func fileID(_ identity: String, path: String, displayPath: String, includedFrom here: SourceLocation) -> Int? {
            if let known = fileIDs[identity] { return known }
            let contents: FileBytes.Contents
            switch FileBytes.read(path) {
            case .success(let read): contents = read
            case .failure(let failure):
                let reason = failure.code == ENOENT ? "no such file" : "it cannot be read (\(failure.reason))"
                diagnostics.append(.error(NginxRules.includeMissing.id, "cannot open '\(displayPath)': \(reason)", at: here))
                fileIDs[identity] = .some(nil)
                return nil
            }
            guard contents.bytes.count < Int32.max else {
                diagnostics.append(.error(NginxRules.fileTooLarge.id, "'\(displayPath)' is larger than 2 GiB; detour does not read it", at: here))
                fileIDs[identity] = .some(nil)
                return nil
            }
            return add(NginxParser.parse(contents.bytes, fileID: Int32(files.count), path: displayPath), identity: identity, path: path)
        }

        private func add(_ file: NginxParsedFile, identity: String, path: String) -> Int {
            let id = files.count
            diagnostics += file.diagnostics
            files.append(file)
            paths.append(path)
            fileIDs[identity] = id
            return id
        }

        /// Reads and parses the files a pattern names that are not read yet on all cores, so
        /// `include sites-enabled/*;` over thousands of files does not read them one by one.
        /// A file that cannot be read is left for `fileID` to report where it is included.
        private func prefetch(_ matches: [(path: String, display: String)]) {
            let unread = matches.filter { identities[$0.path] == nil }
            guard unread.count > 1 else { return }
            let results = unread.concurrentMap { FileBytes.read($0.path) }
            var readable: [(bytes: [UInt8], id: Int32, display: String, identity: String, path: String)] = []
            var seen = Set<String>()
            for (match, result) in zip(unread, results) {
                guard case .success(let contents) = result else { continue }
                identities[match.path] = contents.identity
                guard fileIDs[contents.identity] == nil, seen.insert(contents.identity).inserted, contents.bytes.count < Int32.max else { continue }
                readable.append((contents.bytes, Int32(files.count + readable.count), match.display, contents.identity, match.path))
            }
            let parsed = readable.concurrentMap { NginxParser.parse($0.bytes, fileID: $0.id, path: $0.display) }
            for (file, source) in zip(parsed, readable) { _ = add(file, identity: source.identity, path: source.path) }
        }

        /// Copies `range` of a file's entries to the output, replacing each `include` with
        /// the directives of the files it names and fixing where each block ends.
        private func splice(_ fileEntries: [NginxEntry], _ range: Range<Int>, chain: [Int], into output: inout [NginxEntry]) {
            var index = range.lowerBound
            while index < range.upperBound {
                let entry = fileEntries[index]
                let next = Int(entry.end)
                if entry.isInclude {
                    expandInclude(entry, chain: chain, into: &output)
                } else if output.count < NginxConfigLoader.maximumDirectives {
                    let position = output.count
                    output.append(entry)
                    if entry.isBlock { splice(fileEntries, index + 1..<next, chain: chain, into: &output) }
                    output[position].end = Int32(output.count)
                }
                index = next
            }
        }

        private func expandInclude(_ entry: NginxEntry, chain: [Int], into output: inout [NginxEntry]) {
            includes.append(entry)
            let key = [entry.file, entry.firstWord]
            guard !cyclicIncludes.contains(key) else { return }
            let file = Int(entry.file)
            let location = files[file].location(of: files[file].words[Int(entry.firstWord)])
            guard entry.wordCount == 2 else {
                diagnostics.append(.error(NginxRules.syntax.id, "invalid number of arguments in \"include\" directive", at: location))
                return
            }
            let pattern = files[file].value(of: files[file].words[Int(entry.firstWord) + 1])
            if matched[pattern] == nil {
                matched[pattern] = matches(pattern)
                if chain.count < NginxConfigLoader.maximumIncludeDepth { prefetch(matched[pattern] ?? []) }
            }
            var closesCycle = false
            for match in matched[pattern] ?? [] {
                if !include(match.path, displayPath: match.display, includedFrom: location, chain: chain, into: &output) { closesCycle = true }
            }
            if closesCycle { cyclicIncludes.insert(key) }
            if output.count >= NginxConfigLoader.maximumDirectives, !reportedTooMany {
                reportedTooMany = true
                diagnostics.append(
                    .error(
                        NginxRules.includeSize.id, "includes here expand to more than \(NginxConfigLoader.maximumDirectives) directives; the rest is not read",
                        at: location))
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
            guard FileGlob.hasWildcard(pattern) else { return [(full, display(full))] }
            return FileGlob.matches(full).map { ($0, display($0)) }
        }
    }
}

extension NginxEntry {
    /// An `include` line, replaced by what it names.
    fileprivate var isInclude: Bool { name == .include && !isBlock }
}
