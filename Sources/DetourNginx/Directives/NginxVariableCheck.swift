import DetourDiagnostics
import DetourSupport
import Foundation
import Synchronization

/// `unknown "arg" variable`: nginx refuses to start when a value names a variable that no
/// module provides and nothing in the configuration defines. nginx names no line; detour
/// reports each use. Only nginx's own directives and `map` values are read (a Lua or Perl
/// string is code, not a value), and regular expressions are left alone.
struct NginxVariableCheck {
    private let table: NginxDirectiveTable
    /// Names the configuration defines: `set`, `map`, `geo`, `split_clients`, any `*set*`
    /// directive of a module, a `$name` entry of a module's block, a regex's named capture.
    private var defined: Set<String> = []
    private var diagnostics: [Diagnostic] = []
    /// HTTP server blocks met, checked afterwards in parallel.
    private var deferredServers: [NginxDirective] = []
    private let readings: [Reading?]
    private var view: NginxConfigView?

    static func check(_ config: NginxConfig, table: NginxDirectiveTable = .shared) -> [Diagnostic] {
        var check = NginxVariableCheck(table: table)
        // Every directive is looked at once for definitions, in slices over the cores.
        let slices = stride(from: 0, to: config.entryCount, by: 4096).map { $0..<min($0 + 4096, config.entryCount) }
        let view = config.view
        check.view = view
        check.defined = slices.concurrentMap { slice in
            var found = Set<String>()
            for index in slice {
                guard mayDefine(view, index) else { continue }
                found.formUnion(definitions(in: NginxDirective(view: view, index: index)))
            }
            return found
        }.reduce(into: Set<String>()) { $0.formUnion($1) }
        for directive in config.directives {
            switch directive.name {
            case "http": check.checkUses(in: directive.children, blocks: NginxDirectiveTable.variableInHTTP, insideMap: false)
            case "stream": check.checkUses(in: directive.children, blocks: NginxDirectiveTable.variableInStream, insideMap: false)
            case "server": check.deferredServers.append(directive)
            default: break
            }
        }
        let inServers = check.deferredServers.concurrentMap { [check] server -> [Diagnostic] in
            var one = check
            one.diagnostics = []
            one.checkUses(in: [server], blocks: NginxDirectiveTable.variableInHTTP, insideMap: false, deferringServers: false)
            return one.diagnostics
        }
        return check.diagnostics + inServers.joined()
    }

    private init(table: NginxDirectiveTable) {
        self.table = table
        readings = Self.readings(table)
    }

    private static let namedCapture = try! NSRegularExpression(pattern: #"\(\?(?:P?<|')([A-Za-z_][A-Za-z0-9_]*)[>']"#)

    private static let dollar = UInt8(ascii: "$"), question = UInt8(ascii: "?")

    private static let blockDefiners = ["map", "split_clients", "geo"].map { Array($0.utf8) }

    /// Whether directive `index` may define a variable, read from its bytes: most directives
    /// that name variables only use them, and no string is made for those.
    private static func mayDefine(_ view: NginxConfigView, _ index: Int) -> Bool {
        let count = Int(view.entry(index).wordCount)
        if view.anyWord(index, in: 0...count - 1, contains: question) { return true }
        let name = view.bytes(index, word: 0)
        if name.first == dollar || blockDefiners.contains(where: { $0.elementsEqual(name) }) { return true }
        return count > 1 && view.bytes(index, word: 1).first == dollar && setsVariable(name)
    }

    /// What one directive that has a `$` or a `?` defines (its block's contents are
    /// directives of their own).
    private static func definitions(in directive: NginxDirective) -> [String] {
        let mayCapture = (0...directive.argumentCount).contains { directive.word($0, contains: question) }
        let name = directive.name
        var found: [String] = []
        func define(_ value: String?) {
            guard let value, value.hasPrefix("$") else { return }
            found.append(variableName(value.dropFirst()))
        }
        switch name {
        case "map", "split_clients": define(directive.value(at: 1))
        case "geo": define(directive.lastValue)
        default:
            if setsVariable(name) { define(directive.firstValue) }
            if name.hasPrefix("$") { define(name) }
        }
        guard mayCapture else { return found }
        for value in directive.values + [name] where value.contains("(?") {
            let range = NSRange(value.startIndex..., in: value)
            for match in namedCapture.matches(in: value, range: range) {
                if let capture = Range(match.range(at: 1), in: value) { found.append(value[capture].lowercased()) }
            }
        }
        return found
    }

    /// `${name}` or `$name` → `name`, lower case, as nginx looks it up.
    private static func variableName(_ text: UnsafeBufferPointer<UInt8>) -> String {
        var start = 0
        if text.first == UInt8(ascii: "{") { start = 1 }
        var end = start
        while end < text.count, isNameByte(text[end]) { end += 1 }
        return ASCIIText.lowercased(text[start..<end])
    }

    private static func variableName(_ text: Substring) -> String {
        var text = String(text)
        return text.withUTF8 { variableName($0) }
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
    }

    /// `perl_set`, `set_by_lua`, `auth_request_set`: a directive that sets its first argument.
    private static func setsVariable(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { setsVariable($0) }
    }

    private static func setsVariable(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        var previous: (UInt8, UInt8) = (0, 0)
        for byte in name {
            if previous == (UInt8(ascii: "s"), UInt8(ascii: "e")), byte == UInt8(ascii: "t") { return true }
            previous = (previous.1, byte)
        }
        return false
    }

    private mutating func checkUses(in children: some Sequence<NginxDirective>, blocks: UInt8, insideMap: Bool, deferringServers: Bool = true) {
        for directive in children {
            let view = view!
            if insideMap {
                // An entry: its key is matched, its value is a value.
                if view.anyWord(directive.index, in: 1...1, contains: Self.dollar) { checkUses(in: directive, at: 0, blocks: blocks) }
                continue
            }
            let usesVariables = view.anyWord(directive.index, in: 1...Int.max - 1, contains: Self.dollar)
            let entry = view.entry(directive.index)
            guard usesVariables || entry.isBlock else { continue }
            if deferringServers, entry.name == .server, entry.isBlock, blocks == NginxDirectiveTable.variableInHTTP {
                deferredServers.append(directive)
                continue
            }
            guard let id = table.nameID(view.bytes(directive.index, word: 0)), let reading = readings[id] else { continue }
            if usesVariables, let valuesFrom = reading.valuesFrom {
                for position in valuesFrom..<max(valuesFrom, min(reading.valuesUntil, directive.argumentCount))
                where view.anyWord(directive.index, in: position + 1...position + 1, contains: Self.dollar) {
                    checkUses(in: directive, at: position, blocks: blocks)
                }
            }
            guard directive.isBlock, reading.holdsDirectives else { continue }
            checkUses(in: directive.children, blocks: blocks, insideMap: reading.isMap, deferringServers: deferringServers)
        }
    }

    /// How to read one of nginx's own directives here.
    private struct Reading {
        /// Its arguments from here to `valuesUntil` are values nginx fills in; nil: none are.
        var valuesFrom: Int?
        var valuesUntil = Int.max
        /// A block whose contents are directives.
        var holdsDirectives = true
        var isMap = false
    }

    /// Worked out once per directive table.
    private static let cachedReadings = Mutex<[Reading?]?>(nil)

    /// `Reading` by directive number; nil for a module's directive (its strings may be code).
    private static func readings(_ table: NginxDirectiveTable) -> [Reading?] {
        if let cached = cachedReadings.withLock({ $0 }), cached.count == table.nameCount { return cached }
        var readings = [Reading?](repeating: nil, count: table.nameCount)
        for id in 0..<table.nameCount where table.isBuiltin(id) { readings[id] = Reading() }
        for (name, position) in valuesFrom {
            if let id = table.nameID(name), readings[id] != nil { readings[id]?.valuesFrom = position }
        }
        // `map` and `split_clients` define what follows their source.
        for name in ["map", "split_clients"] { if let id = table.nameID(name) { readings[id]?.valuesUntil = 1 } }
        for name in ["types", "geo", "split_clients", "charset_map", "limit_except"] {
            if let id = table.nameID(name) { readings[id]?.holdsDirectives = false }
        }
        if let id = table.nameID("map") { readings[id]?.isMap = true }
        cachedReadings.withLock { $0 = readings }
        return readings
    }

    /// nginx's own directives whose arguments from this position on are values it fills in
    /// (`add_header NAME value`: the name is literal). Others are left alone.
    private static let valuesFrom: [String: Int] = {
        var table: [String: Int] = [
            "return": 0, "rewrite": 1, "if": 0, "set": 1, "map": 0, "split_clients": 0, "try_files": 0, "root": 0, "alias": 0,
            "index": 0, "error_page": 1, "log_format": 1, "access_log": 0, "auth_basic": 0, "auth_basic_user_file": 0,
            "auth_request_set": 1, "add_header": 1, "add_trailer": 1, "expires": 0, "limit_req_zone": 0, "limit_conn_zone": 0,
            "ssl_certificate": 0, "ssl_certificate_key": 0, "sub_filter": 0, "secure_link": 0, "secure_link_md5": 0,
            "charset": 0, "limit_rate": 0, "limit_rate_after": 0, "internal_redirect": 0,
        ]
        for module in ["proxy", "fastcgi", "uwsgi", "scgi", "grpc"] {
            table["\(module)_pass"] = 0
            table["\(module)_cache_key"] = 0
            table["\(module)_cache_bypass"] = 0
            table["\(module)_no_cache"] = 0
        }
        for directive in ["proxy_set_header", "grpc_set_header", "fastcgi_param", "uwsgi_param", "scgi_param", "proxy_redirect"] {
            table[directive] = 1
        }
        return table
    }()

    /// A regular expression, not a value: `$` there is an anchor.
    private static func isPattern(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first else { return false }
        return first == UInt8(ascii: "~") || first == UInt8(ascii: "^")
            || zip(bytes, bytes.dropFirst()).contains { $0 == UInt8(ascii: "(") && $1 == UInt8(ascii: "?") }
    }

    private mutating func checkUses(in directive: NginxDirective, at position: Int, blocks: UInt8) {
        // Read in place: most values name variables that are known, and no string is made
        // for the value itself.
        let bytes = view!.bytes(directive.index, word: position + 1)
        guard !Self.isPattern(bytes) else { return }
        var index = 0
        while index < bytes.count {
            defer { index += 1 }
            guard bytes[index] == Self.dollar else { continue }
            let name = Self.variableName(UnsafeBufferPointer(rebasing: bytes[(index + 1)...]))
            guard !name.isEmpty, !name.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), !defined.contains(name) else { continue }
            guard !table.knowsVariable(name, in: blocks), let location = directive.location(ofArgument: position) else { continue }
            diagnostics.append(
                .error(
                    NginxRules.directive.id, "unknown \"\(name)\" variable", at: location,
                    notes: [
                        .init("no module of nginx provides it and nothing in the configuration sets it; nginx refuses to start")
                    ]))
        }
    }
}
