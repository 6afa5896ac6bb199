import DetourDiagnostics
import DetourSupport

/// What nginx checks as it reads a configuration, before it would start: every directive's
/// name, place, argument count and on/off value against the probed table, a setting given
/// twice, and what nginx checks at the end of a block or of the file (servers in an upstream,
/// duplicate locations, an `events` section). Each problem is reported at the line nginx names
/// with nginx's words first, and the walk goes on, so one run reports them all.
struct NginxDirectiveCheck {
    private let table: NginxDirectiveTable
    /// A `load_module` naming a module the table does not know: unknown names may be its.
    private var unknownModule: (file: String, at: SourceLocation)?
    /// HTTP server blocks met, walked afterwards in parallel.
    private var deferredServers: [NginxDirective] = []
    /// Where each file's first syntax error is (line, column).
    private var firstSyntaxError: [String: (Int, Int)] = [:]
    private(set) var diagnostics: [Diagnostic] = []

    /// `syntaxErrors`: what the parser reported. nginx stops at the first; past it in a file,
    /// what the parser made of the rest is a guess, so it is not checked.
    /// `wholeConfiguration`: false for a quoted piece, which need not have an `events` section
    /// and may use variables set outside it.
    static func check(_ config: NginxConfig, syntaxErrors: [Diagnostic] = [], table: NginxDirectiveTable = .shared, wholeConfiguration: Bool = true)
        -> [Diagnostic]
    {
        var check = NginxDirectiveCheck(table: table)
        // A `;` with no directive (`server_name a;;`) is the one error whose rest reads the same
        // once it is removed, as verify's rerun reads it.
        for error in syntaxErrors where error.severity == .error && error.rule == NginxRules.syntax.id && error.message != NginxParser.straySemicolon {
            let at = (error.location.line, error.location.column)
            if let first = check.firstSyntaxError[error.location.path], first <= at { continue }
            check.firstSyntaxError[error.location.path] = at
        }
        let top = config.directives
        check.unknownModule = check.firstUnknownModule(in: top)
        let root = check.rootContext(of: top)
        check.walk(NginxDirective.Children(view: config.view, range: 0..<config.entryCount), in: root)
        // Server blocks share nothing this check keeps, so thousands of them are spread over the cores.
        let servers = check.deferredServers
        check.deferredServers = []
        let inServers = servers.concurrentMap { [check] server -> [Diagnostic] in
            var one = check
            one.diagnostics = []
            one.walk(server.children, in: .server)
            return one.diagnostics
        }
        check.diagnostics += inServers.joined()
        // nginx asks for certificates as it closes `http`, before it looks for `events`; a file
        // it could not read (a missing include) stops it first.
        if wholeConfiguration, check.diagnostics.isEmpty, !syntaxErrors.contains(where: { $0.severity == .error }) {
            check.diagnostics += NginxTLSCertificates.check(top)
        }
        if wholeConfiguration, root == .main, check.firstSyntaxError.isEmpty, !top.isEmpty, !top.contains(where: { $0.name == "events" }),
            let file = config.displayPaths.first
        {
            check.error("no \"events\" section in configuration", at: SourceLocation(path: file, line: 1, column: 1))
        }
        // A module detour does not know may provide variables; past a syntax error nginx stops.
        if wholeConfiguration, check.unknownModule == nil, check.firstSyntaxError.isEmpty {
            check.diagnostics += NginxVariableCheck.check(config, table: table)
        }
        // A file included in several blocks is checked in each; its problems are said once.
        return check.diagnostics
    }

    private init(table: NginxDirectiveTable) {
        self.table = table
    }

    /// A main file starts in `main`; a site file (top-level `server` blocks) is read as if
    /// inside `http`, a file of locations as if inside `server`: the first context where every
    /// top-level directive nginx knows is allowed.
    private func rootContext(of top: [NginxDirective]) -> NginxContext {
        let known = top.filter { table.form(of: $0.name, in: .main).isKnown }
        return [NginxContext.main, .http, .server, .location].first { context in
            known.allSatisfy { table.form(of: $0.name, in: context).form != nil }
        } ?? .main
    }

    private func firstUnknownModule(in top: [NginxDirective]) -> (file: String, at: SourceLocation)? {
        for directive in top where directive.name == "load_module" {
            guard let path = directive.firstValue else { continue }
            let file = String(path.split(separator: "/").last ?? "")
            if !table.modules.contains(file) { return (file, directive.location) }
        }
        return nil
    }

    private mutating func walk(_ children: NginxDirective.Children, in context: NginxContext) {
        var given = Set<Int32>()
        // Each off-once name given so far in this block, and whether one was `off`.
        var givenWithOff: [Int32: Bool] = [:]
        var locations: [String: NginxDirective] = [:]
        for directive in children {
            if !firstSyntaxError.isEmpty {
                let end = directive.endLocation
                if let broken = firstSyntaxError[end.path], (end.line, end.column) >= broken { continue }
            }
            let (form, isKnown) = directive.withNameBytes { table.form(of: $0, in: context) }
            // Made only for a message or a block: most directives need no string.
            var name: String { directive.name }
            guard isKnown else {
                unknown(directive)
                continue
            }
            guard let form else {
                error("\"\(name)\" directive is not allowed here", at: directive.refusalLocation, directive)
                continue
            }
            // nginx stops here before counting arguments; the parser has reported it for the
            // names it knows itself.
            if form.isBlock != directive.isBlock {
                if directive.kind == nil {
                    error(
                        form.isBlock ? "directive \"\(name)\" has no opening \"{\"" : "directive \"\(name)\" is not terminated by \";\"",
                        at: directive.refusalLocation, directive)
                }
                continue
            }
            guard form.accepts(directive.argumentCount) else {
                error("invalid number of arguments in \"\(name)\" directive", at: directive.refusalLocation, directive)
                continue
            }
            if form.isFlag, !Self.isOnOrOff(directive), let value = directive.firstValue, value.lowercased() != "on", value.lowercased() != "off" {
                error("invalid value \"\(value)\" in \"\(name)\" directive, it must be \"on\" or \"off\"", at: directive.refusalLocation, directive)
            }
            if form.hasRefusedValues, let values = table.refusedValues[form.nameID], let value = directive.firstValue, let message = values[value] {
                error(message, at: directive.refusalLocation, directive)
            }
            if form.isConstant, directive.argumentCount == 1, directive.word(1, contains: UInt8(ascii: "$")) {
                error("\"\(name)\" directive invalid value", at: directive.refusalLocation, directive)
            }
            if form.isOnce, !given.insert(form.nameID).inserted {
                error("\"\(name)\" directive is duplicate", at: directive.refusalLocation, directive)
            }
            if form.isOnceWithOff {
                let isOff = directive.argumentCount == 1 && directive.firstValue == "off"
                if let earlierOff = givenWithOff[form.nameID], isOff || earlierOff {
                    error("\"\(name)\" directive is duplicate", at: directive.refusalLocation, directive)
                }
                givenWithOff[form.nameID] = (givenWithOff[form.nameID] ?? false) || isOff
            }
            switch (context, directive.kind) {
            case (.server, .listen?): checkListen(directive)
            case (.upstream, .server?), (.streamUpstream, .server?): checkUpstreamServer(directive)
            case (.server, .location?), (.location, .location?): checkDuplicate(directive, among: &locations)
            case (.server, .if?), (.location, .if?): checkCondition(directive)
            default: break
            }
            if directive.isBlock, let inner = context.inside(directive) {
                if inner == .server {
                    deferredServers.append(directive)
                    continue
                }
                walk(directive.children, in: inner)
                if inner == .upstream || inner == .streamUpstream, !directive.children.contains(where: { $0.kind == .server }) {
                    error("no servers are inside upstream", at: directive.closingLocation)
                }
            }
        }
    }

    private static let on = Array("on".utf8), off = Array("off".utf8)

    /// `on` or `off` in any case, read in place; false may still be one written with quotes
    /// or escapes.
    private static func isOnOrOff(_ directive: NginxDirective) -> Bool {
        let folded = directive.view.bytes(directive.index, word: 1).lazy.map { $0 | 0x20 }
        return folded.elementsEqual(on) || folded.elementsEqual(off)
    }

    private mutating func unknown(_ directive: NginxDirective) {
        let message = "unknown directive \"\(directive.name)\""
        if let module = unknownModule {
            diagnostics.append(
                Diagnostic(
                    .note, NginxRules.directive.id, message + "; it may come from \(module.file), which detour does not know, so it is not checked",
                    at: directive.refusalLocation, notes: [.init("the module is loaded here", at: module.at)]))
        } else if NginxPlusOnly.directives.contains(directive.name) {
            error(message, at: directive.refusalLocation, directive, notes: [.init(NginxPlusOnly.note)])
        } else {
            error(message, at: directive.refusalLocation, directive)
        }
    }

    /// `listen 80000`, `listen 127.0.0.1:`: nginx takes ports 1 to 65535 after a colon, or
    /// a bare number (a bare word is a host name).
    private mutating func checkListen(_ directive: NginxDirective) {
        guard let address = directive.firstValue, !address.hasPrefix("unix:") else { return }
        let port: Substring?
        if address.hasPrefix("[") {
            let rest = address.firstIndex(of: "]").map { address[address.index(after: $0)...] } ?? ""
            port = rest.hasPrefix(":") ? rest.dropFirst() : nil
        } else if let colon = address.lastIndex(of: ":") {
            port = address[address.index(after: colon)...]
        } else {
            port = address.allSatisfy({ $0.isASCII && $0.isNumber }) ? Substring(address) : nil
        }
        guard let port else { return }
        let isDigits = !port.isEmpty && port.count <= 5 && port.allSatisfy { $0.isASCII && $0.isNumber }
        if !isDigits || !(1...65535).contains(Int(port) ?? 0) {
            error("invalid port in \"\(address)\" of the \"listen\" directive", at: directive.refusalLocation, directive)
        }
    }

    /// `if ($request_method =$ POST)`: a variable alone, or a variable, one of nginx's
    /// comparison operators and one operand.
    private mutating func checkCondition(_ directive: NginxDirective) {
        guard let words = NginxCondition(directive)?.words, let variable = words.first else { return }
        guard variable.hasPrefix("$") else {
            if !NginxCondition.fileTests.contains(variable) {
                error("invalid condition \"\(variable)\"", at: directive.refusalLocation, directive)
            }
            return
        }
        guard words.count > 1 else { return }
        guard words.count == 3 else {
            error("invalid condition \"\(variable)\"", at: directive.refusalLocation, directive)
            return
        }
        if !NginxCondition.operators.contains(words[1]) {
            error("unexpected \"\(words[1])\" in condition", at: directive.refusalLocation, directive)
        }
    }

    /// `server app:80 weight=2 backup;`: the parameters nginx's own upstream module takes.
    private mutating func checkUpstreamServer(_ directive: NginxDirective) {
        for argument in directive.arguments.dropFirst() {
            let key = argument.value.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument.value
            let hasValue = argument.value.contains("=")
            if hasValue ? ["weight", "max_conns", "max_fails", "fail_timeout"].contains(key) : ["backup", "down"].contains(key) { continue }
            let notes: [Diagnostic.Note] = NginxPlusOnly.serverParameters.contains(key) ? [.init(NginxPlusOnly.note)] : []
            error("invalid parameter \"\(argument.value)\"", at: directive.refusalLocation, directive, notes: notes)
        }
    }

    /// Two locations with the same prefix (or the same exact URI) in one block.
    private mutating func checkDuplicate(_ location: NginxDirective, among seen: inout [String: NginxDirective]) {
        let key: String
        switch (location.argumentCount, location.firstValue ?? "") {
        case (1, let uri) where !uri.hasPrefix("@"): key = " " + uri
        case (2, "^~"): key = " " + (location.lastValue ?? "")
        case (2, "="): key = "=" + (location.lastValue ?? "")
        default: return
        }
        if let first = seen[key] {
            error(
                "duplicate location \"\(key.dropFirst())\"", at: location.endLocation,
                notes: [.init("the first \"location\" with it is here", at: first.location)])
        } else {
            seen[key] = location
        }
    }

    private mutating func error(_ message: String, at location: SourceLocation, _ directive: NginxDirective? = nil, notes: [Diagnostic.Note] = []) {
        var notes = notes
        // Reported where the directive ends, as nginx does; where it starts, when that is
        // earlier (a missing `;` joins two lines).
        if let directive, directive.location.line != location.line || directive.location.path != location.path {
            notes.insert(.init("directive \"\(directive.name)\" starts here", at: directive.location), at: 0)
        }
        diagnostics.append(.error(NginxRules.directive.id, message, at: location, notes: notes))
    }
}
