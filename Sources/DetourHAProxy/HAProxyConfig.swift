import DetourDiagnostics
import DetourProxyCore
import Foundation

/// The configuration as `haproxy -f a.cfg -f conf.d/` reads it: each file, or each `*.cfg` of
/// a folder in lexical order, one after another, split into sections, `.if` blocks decided.
struct HAProxyConfig: Sendable {
    var sections: [HAProxySection] = []
    var diagnostics: [Diagnostic] = []
    /// What HAProxy refuses only once it has read the files without a fatal error: the
    /// log-format strings of `use_backend`, `log-format`, `unique-id-format` and
    /// `error-log-format`, which it parses then (check_config_validity()).
    var afterReading: [Diagnostic] = []
    /// How a refusal after which HAProxy reads no further line ends.
    static let stopsReading = "HAProxy refuses the file and stops reading it"
    /// Every file read, as findings name them.
    var files: [String] = []
    /// The Lua scripts loaded so far: a later file's proxies use what the first's global loads.
    private var lua = HAProxyLuaScripts(lookup: nil)
    /// The length of the global `unix-bind prefix` a `bind`'s socket path is joined to.
    private var unixBindPrefix: Int? = 0

    /// `paths`: what `-f` names, each with how it is shown; `version`: the HAProxy whose
    /// keywords the lines are read for; `files`: where the Lua scripts `lua-load` names and the
    /// pattern files of ACLs and map converters are looked for (nil: not judged).
    static func load(
        _ paths: [(url: URL, display: String)], environment: [String: String], version: HAProxyVersionSource = HAProxyVersionSource(),
        files: HAProxyFileLookup? = nil
    ) -> HAProxyConfig {
        var config = HAProxyConfig()
        config.lua = HAProxyLuaScripts(lookup: files)
        for (url, display) in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
                config.diagnostics.append(.error(HAProxyRules.syntax.id, "'\(display)' does not exist", at: SourceLocation(path: display)))
                continue
            }
            if isFolder.boolValue {
                let names = ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).filter { $0.hasSuffix(".cfg") && !$0.hasPrefix(".") }
                    .sorted()
                for name in names {
                    config.read(
                        url.appendingPathComponent(name), display: (display.hasSuffix("/") ? display : display + "/") + name, environment: environment,
                        version: version)
                }
            } else {
                config.read(url, display: display, environment: environment, version: version)
            }
        }
        return config
    }

    private mutating func read(_ url: URL, display: String, environment: [String: String], version: HAProxyVersionSource) {
        files.append(display)
        let bytes: [UInt8]
        switch ConfigurationText.read(url.path, display: display, rule: HAProxyRules.syntax.id) {
        case .success(let text): bytes = text.bytes
        case .failure(let failure):
            diagnostics.append(failure.diagnostic)
            return
        }
        let lines = HAProxyLexer(path: display, environment: environment).lines(bytes, diagnostics: &diagnostics)
        // Each `.if` level: whether a branch was taken, and whether the current one is.
        var blocks: [(taken: Bool, active: Bool, at: SourceLocation)] = []
        var active: Bool { blocks.allSatisfy(\.active) }
        // A proxy section whose own line HAProxy refused opens no proxy: it refuses each of its
        // lines too.
        var refusedSection = false
        // What the current section's kind takes, looked up once per run of sections of one
        // kind, and the first few keywords it took: configurations repeat a handful thousands
        // of times.
        var sectionKeywords: HAProxyKeywordTable.Kind?
        var taken: [String] = []
        var acls = HAProxyACLNames()
        var samples = HAProxySampleRefusals(reader: HAProxySampleReader(refusesUnknown: { version.refusesUnknown }))
        samples.reader.loadsLua = lua.mayRegister
        samples.reader.patternFiles = lua.lookup
        // HAProxy stops reading at an HTTP rule it refuses (its expressions, an action no Lua
        // script registered): it names only the first.
        var stopped = false
        // Whether the current section is a proxy (or defaults): asked of most lines.
        var inProxy = sections.last.flatMap { HAProxyKeyword.of($0.kind)?.opensProxy } ?? false
        for line in lines.joined() {
            // Only a conditional block's words start with a dot: most lines skip the switch.
            if line.keyword.utf8.first == UInt8(ascii: ".") {
                switch line.keyword {
                case ".if":
                    let outer = active
                    let value = condition(line.words.dropFirst().map(\.text), line, environment)
                    blocks.append((value, outer && value, line.location))
                    continue
                case ".elif":
                    guard let last = blocks.popLast() else {
                        unmatched(line)
                        continue
                    }
                    let outer = active
                    let value = !last.taken && condition(line.words.dropFirst().map(\.text), line, environment)
                    blocks.append((last.taken || value, outer && value, last.at))
                    continue
                case ".else":
                    guard let last = blocks.popLast() else {
                        unmatched(line)
                        continue
                    }
                    blocks.append((true, active && !last.taken, last.at))
                    continue
                case ".endif":
                    if blocks.popLast() == nil { unmatched(line) }
                    continue
                case ".alert":
                    // HAProxy stops reading at an .alert its conditions reach (`.if !defined(PORT)`).
                    if active {
                        let text = line.words.dropFirst().map(\.text).joined(separator: " ")
                        diagnostics.append(.error(HAProxyRules.syntax.id, "'\(text)': an .alert makes HAProxy refuse the file", at: line.location))
                    }
                    continue
                case ".diag", ".notice", ".warning":
                    continue
                default:
                    break
                }
            }
            guard active else { continue }
            if line.knownKeyword == .luaLoad || line.knownKeyword == .luaLoadPerThread, sections.last?.kind == "global" {
                if let refusal = lua.load(line) { diagnostics.append(refusal) }
                samples.reader.loadsLua = lua.mayRegister
            }
            if line.knownKeyword == .unixBind, sections.last?.kind == "global", let prefix = line.words.firstIndex(where: { $0.text == "prefix" }) {
                unixBindPrefix = prefix + 1 < line.words.count ? line.words[prefix + 1].text.utf8.count : nil
            }
            if line.knownKeyword?.opensSection == true {
                var section = HAProxySection(kind: line.keyword, location: line.location)
                acls.enter()
                // Thousands of backends in a row: the same kind keeps what it took.
                if sections.isEmpty || sections[sections.count - 1].kind != line.keyword {
                    sectionKeywords = HAProxyKeywordTable.shared.kind(line.keyword)
                    taken = []
                }
                let rest = Array(line.words.dropFirst())
                // A proxy's line takes a name, and after it only `from <defaults>`: HAProxy
                // refuses an address there (the syntax of its 1.x versions) or any other word.
                // A defaults section's line ignores what follows its name (`defaults web    mode
                // http` on one line).
                if line.knownKeyword?.opensProxy == true, line.knownKeyword != .defaults, rest.count > 1, rest.count != 3 || rest[1].text != "from" {
                    let message =
                        ["listen", "frontend"].contains(line.keyword)
                        ? "please use the 'bind' keyword for listening addresses: HAProxy refuses the file ('\(rest[1].text)' after the name)"
                        : "'\(line.keyword)' cannot handle unexpected argument '\(rest[1].text)': HAProxy refuses the file"
                    diagnostics.append(.error(HAProxyRules.syntax.id, message, at: line.location))
                    refusedSection = true
                } else {
                    refusedSection = false
                }
                if !refusedSection, line.knownKeyword?.opensProxy == true, let name = rest.first,
                    let refusal = Self.nameRefusal(name.text, "'\(line.keyword)' name")
                {
                    diagnostics.append(.error(HAProxyRules.syntax.id, refusal, at: line.location(of: name)))
                }
                if let from = rest.firstIndex(where: { $0.text == "from" }), from + 1 < rest.count {
                    section.from = rest[from + 1].text
                    section.fromLocation = line.location(of: rest[from + 1])
                    section.name = from > 0 ? rest[0].text : nil
                } else {
                    section.name = rest.first?.text
                }
                sections.append(section)
                inProxy = line.knownKeyword?.opensProxy == true
            } else if sections.isEmpty {
                diagnostics.append(
                    .error(HAProxyRules.syntax.id, "unknown keyword '\(line.keyword)' out of section: HAProxy refuses the file", at: line.location))
            } else {
                if refusedSection {
                    diagnostics.append(
                        .error(HAProxyRules.syntax.id, "'listen' or 'defaults' expected: the section's own line above was refused", at: line.location))
                } else if let keywords = sectionKeywords, !taken.contains(line.keyword),
                    let refusal = Self.keywordRefusal(line, in: sections[sections.count - 1].name, keywords, version: version, taken: &taken)
                {
                    diagnostics.append(refusal)
                } else if line.knownKeyword == .timeout, line.words.count > 1, inProxy,
                    let refusal = HAProxyTimeoutName.refusal(line.words[1].text)
                {
                    diagnostics.append(.error(HAProxyRules.directive.id, refusal, at: line.location(of: line.words[1])))
                } else if inProxy,
                    let unknown = acls.read(line, kind: sections[sections.count - 1].kind)
                {
                    diagnostics.append(.error(HAProxyRules.syntax.id, unknown.message, at: line.location(of: unknown.word)))
                } else if line.knownKeyword == .mode, line.words.count > 1, inProxy,
                    let refusal = Self.modeRefusal(line.words[1].text, version: version)
                {
                    diagnostics.append(.error(HAProxyRules.syntax.id, refusal, at: line.location(of: line.words[1]), notes: [version.note]))
                } else if line.words.count > 1, line.knownKeyword == .acl || line.knownKeyword == .server, inProxy,
                    let refusal = Self.nameRefusal(line.words[1].text, "\(line.keyword) name")
                {
                    diagnostics.append(.error(HAProxyRules.syntax.id, refusal, at: line.location(of: line.words[1])))
                } else if let refusal = HAProxyLogLine.refusal(of: line, inGlobal: sections[sections.count - 1].kind == "global") {
                    diagnostics.append(.error(HAProxyRules.syntax.id, refusal.message + ": HAProxy refuses the file", at: line.location(of: refusal.word)))
                } else if let refusal = HAProxyAddressLines.refusal(
                    of: line, kind: sections[sections.count - 1].kind, name: sections[sections.count - 1].name, unixPrefix: unixBindPrefix,
                    hasQUIC: { version.hasQUIC }, environment: environment)
                {
                    diagnostics.append(.error(HAProxyRules.syntax.id, refusal.message + ": HAProxy refuses the file", at: line.location(of: refusal.word)))
                } else if !stopped, let unregistered = lua.refusal(of: line) {
                    diagnostics.append(
                        .error(HAProxyRules.syntax.id, unregistered.message + ": HAProxy refuses the file", at: line.location(of: unregistered.word)))
                    stopped = line.keyword.hasPrefix("http-")
                } else if !stopped, inProxy,
                    let refusal = samples.refusal(of: line, kind: sections[sections.count - 1].kind, name: sections[sections.count - 1].name)
                {
                    let stops = refusal.stops ? ": " + Self.stopsReading : ": HAProxy refuses the file"
                    // HAProxy's words end with a full stop, some with two.
                    var message = Substring(refusal.message)
                    while message.hasSuffix(".") { message = message.dropLast() }
                    let finding = Diagnostic.error(HAProxyRules.syntax.id, message + stops, at: line.location(of: refusal.word))
                    if Self.isFormatReadLater(line.knownKeyword) { afterReading.append(finding) } else { diagnostics.append(finding) }
                    stopped = refusal.stops
                }
                sections[sections.count - 1].lines.append(line)
            }
        }
        for open in blocks {
            diagnostics.append(.error(HAProxyRules.syntax.id, "this .if block has no .endif: HAProxy refuses the file", at: open.at))
        }
    }

    /// HAProxy's refusal of a line whose keyword its section does not take, or one it no
    /// longer supports, in its words; the installed version is asked only then.
    /// `section`: its section's name, which some of HAProxy's words give; `taken`: gets the
    /// line's keyword once its section takes it (an option's line's never: its name decides).
    private static func keywordRefusal(
        _ line: HAProxyLine, in section: String?, _ keywords: HAProxyKeywordTable.Kind, version: HAProxyVersionSource, taken: inout [String]
    ) -> Diagnostic? {
        guard let refusal = keywords.refusal(of: line, named: section) else {
            if line.knownKeyword != .option, line.knownKeyword != .no, taken.count < 8 { taken.append(line.keyword) }
            return nil
        }
        guard refusal.removed ? version.refusesRemoved : version.refusesUnknown else { return nil }
        return .error(HAProxyRules.directive.id, refusal.message + ": HAProxy refuses the file", at: line.location, notes: [version.note])
    }

    /// HAProxy's refusal of a proxy's, an ACL's or a server's name with a character other than
    /// a letter, a digit, '.', ':', '_' or '-', in its words.
    /// `what` is written only for a refusal: thousands of names have none.
    private static func nameRefusal(_ name: String, _ what: @autoclosure () -> String) -> String? {
        // HAProxy's invalid_char(), byte by byte: a CharacterSet per name was a tenth of a
        // 5,000-backend check.
        guard let byte = name.utf8.first(where: { !isNameByte($0) }) else { return nil }
        // Every byte before it was ASCII: a byte past ASCII starts the first scalar that is not.
        let bad = byte < 0x80 ? String(UnicodeScalar(byte)) : name.unicodeScalars.first { !$0.isASCII }.map(String.init) ?? ""
        return "character '\(bad)' is not permitted in \(what()) '\(name)': HAProxy refuses the file"
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "."),
            UInt8(ascii: ":"), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default: false
        }
    }

    /// HAProxy's refusal of a proxy's mode, in 2.6's words (cfg_parse_listen() in
    /// src/cfgparse-listen.c): 2.6 knows `http` and `tcp` and no longer `health`; later versions
    /// also take `log` and `spop` (str_to_proxy_mode() in src/proxy.c), no version any other.
    private static func modeRefusal(_ mode: String, version: HAProxyVersionSource) -> String? {
        switch mode {
        case "http", "tcp": nil
        case "health":
            version.refusesRemoved
                ? "'mode health' doesn't exist anymore. Please use 'http-request return status 200' instead: HAProxy refuses the file" : nil
        case "log", "spop": version.refusesUnknown ? "unknown proxy mode '\(mode)': HAProxy refuses the file" : nil
        default: "unknown proxy mode '\(mode)': HAProxy refuses the file"
        }
    }

    /// The keywords whose log-format strings HAProxy parses once it has read the files.
    private static func isFormatReadLater(_ keyword: HAProxyKeyword?) -> Bool {
        switch keyword {
        case .useBackend, .logFormat, .logFormatSD, .uniqueIDFormat, .errorLogFormat: true
        default: false
        }
    }

    private mutating func condition(_ words: [String], _ line: HAProxyLine, _ environment: [String: String]) -> Bool {
        if let value = HAProxyCondition.evaluate(words, environment: environment) { return value }
        diagnostics.append(.error(HAProxyRules.syntax.id, "HAProxy cannot evaluate the condition '\(words.joined(separator: " "))'", at: line.location))
        return false
    }

    private mutating func unmatched(_ line: HAProxyLine) {
        diagnostics.append(.error(HAProxyRules.syntax.id, "'\(line.keyword)' without an .if before it: HAProxy refuses the file", at: line.location))
    }
}
