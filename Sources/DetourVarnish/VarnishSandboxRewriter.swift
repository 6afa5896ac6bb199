import DetourDiagnostics
import DetourProxyCore
import Foundation

/// The rewrites of one VCL file for `VarnishSandbox`, found in its text: strings (`"…"`,
/// `{"…"}`) and comments (`//`, `#`, `/* */`) are skipped, `backend NAME { … }` blocks,
/// `acl NAME { … }` blocks and `include "…";` read at the top level, `std.fileread("…")` anywhere.
struct VarnishSandboxRewriter {
    let bytes: [UInt8]
    let file: Int
    let display: String
    let context: SandboxContext
    private(set) var rewrites: [SandboxPlan.Rewrite] = []
    /// The files it includes, as written.
    private(set) var includes: [String] = []
    /// The top-level `probe NAME { … }` blocks, and how often a backend's `.probe = NAME;` that
    /// went named each.
    private var probes: [(name: String, block: Range<Int>)] = []
    private var removedProbeNames: [String: Int] = [:]
    /// Whether the file starts with `vcl 4.x;`: without it varnishd refuses its first word,
    /// which blanking a probe there would move.
    private var declaresVersion: Bool?

    /// Backend timeouts longer than this are shortened, so a silent upstream is given up in time.
    static let timeoutSeconds = 3.0

    init(bytes: [UInt8], file: Int, display: String, context: SandboxContext) {
        self.bytes = bytes
        self.file = file
        self.display = display
        self.context = context
    }

    mutating func rewrite() {
        var index = 0
        var depth = 0
        while index < bytes.count {
            if let skipped = skip(from: index) {
                index = skipped
                continue
            }
            let byte = bytes[index]
            if byte == UInt8(ascii: "{") {
                depth += 1
            } else if byte == UInt8(ascii: "}") {
                depth = max(depth - 1, 0)
            } else if isWordStart(index) {
                let word = self.word(at: index)
                if declaresVersion == nil {
                    declaresVersion = word == "vcl"
                    if word == "vcl", file == 0, let end = bytes[index...].firstIndex(of: UInt8(ascii: ";")) {
                        separateProbesInTheCache(after: end)
                    }
                }
                let open = skipBlanks(skipBlanks(index + word.utf8.count) + self.word(at: skipBlanks(index + word.utf8.count)).utf8.count)
                // `backend default none;` declares no block.
                if depth == 0, word == "backend", open < bytes.count, bytes[open] == UInt8(ascii: "{"), let close = closing(open) {
                    backend(index, open..<close)
                    index = close + 1
                    continue
                }
                if depth == 0, word == "acl", let block = aclBlock(after: index + word.utf8.count) {
                    acl(self.word(at: skipBlanks(index + word.utf8.count)), block)
                    index = block.upperBound + 1
                    continue
                }
                if depth == 0, word == "probe", open < bytes.count, bytes[open] == UInt8(ascii: "{"), let close = closing(open) {
                    probes.append((self.word(at: skipBlanks(index + word.utf8.count)), index..<(close + 1)))
                    index = close + 1
                    continue
                }
                if depth == 0, word == "include", let path = string(after: index + word.utf8.count) {
                    includes.append(path.text)
                    if path.text.hasPrefix("/") {
                        replace(path.range, with: context.copy(of: path.text), "include \(path.text): its copy in the sandbox")
                    }
                }
                if word == "std.fileread", let path = string(after: index + word.utf8.count), path.text.hasPrefix("/") {
                    let mapped = PagePathMap.apply(context.maps, to: path.text)
                    if mapped != path.text {
                        replace(path.range, with: mapped, "std.fileread \(path.text): \(mapped) (--map)")
                    } else {
                        let folder = (path.text as NSString).deletingLastPathComponent
                        replace(
                            path.range, with: context.folder + "/unmapped" + path.text,
                            "std.fileread \(path.text): not mapped, not in the sandbox (--map \(folder)=DIR reads it)")
                    }
                }
                index += max(word.utf8.count, 1)
                continue
            }
            index += 1
        }
        // A named probe whose every use went with the backends' health checks: varnishd
        // refuses an unused one, so it goes too.
        for probe in probes
        where (declaresVersion == true || file > 0) && removedProbeNames[probe.name] != nil
            && uses(of: probe.name) == 1 + removedProbeNames[probe.name]!
        {
            let blank = String(bytes[probe.block].map { $0 == UInt8(ascii: "\n") ? "\n" : " " })
            replace(probe.block, with: blank, "probe \(probe.name): removed, as the backends' .probe that named it")
        }
    }

    /// Probes carry their mark in a header (`SandboxPlan.marksInHeader`), so their URLs are
    /// alike: a first `vcl_hash` of the sandbox's, on the version's line (line numbers kept),
    /// hashes the mark, so that no probe is answered from another's cache entry. It returns
    /// nothing: the VCL's own vcl_hash, then the built-in one, run after it as before.
    private mutating func separateProbesInTheCache(after end: Int) {
        replace(
            end..<(end + 1), with: "; sub vcl_hash { hash_data(req.http.\(SandboxPlan.markHeader)); }",
            "vcl_hash: each probe's mark hashed first, so no probe is answered from another's cache entry")
    }

    /// How often `name` is written as a word, comments and strings aside.
    private func uses(of name: String) -> Int {
        var count = 0
        var index = 0
        while index < bytes.count {
            if let skipped = skip(from: index) {
                index = skipped
                continue
            }
            if isWordStart(index) {
                let word = self.word(at: index)
                if word == name { count += 1 }
                index += max(word.utf8.count, 1)
                continue
            }
            index += 1
        }
        return count
    }

    // MARK: Backends

    /// `.host`/`.port` (or `.path`) to the fake upstream, `.probe` and `.proxy_header` blanked,
    /// long timeouts shortened; each field's value from its `=` to its `;` (a probe's `{ … }`).
    private mutating func backend(_ start: Int, _ body: Range<Int>) {
        let name = word(at: skipBlanks(start + "backend".utf8.count))
        let fake = context.upstream.split(separator: ":")
        let (host, port) = (String(fake.first ?? ""), String(fake.last ?? ""))
        var fields: [String: (whole: Range<Int>, value: Range<Int>)] = [:]
        var index = body.lowerBound + 1
        while index < body.upperBound {
            if let skipped = skip(from: index) {
                index = skipped
                continue
            }
            guard bytes[index] == UInt8(ascii: "."), let field = self.field(at: index, before: body.upperBound) else {
                index += 1
                continue
            }
            fields[field.name] = (field.whole, field.value)
            index = field.whole.upperBound
        }
        let text = bytes
        func written(_ field: String) -> String { fields[field].map { String(decoding: text[$0.value], as: UTF8.self) } ?? "" }
        let address = fields["path"] != nil ? written("path") : written("host") + (fields["port"] != nil ? ":" + written("port") : "")
        if let path = fields["path"] {
            replace(path.whole, with: ".host = \"\(host)\"; .port = \"\(port)\";", "backend \(name) .path \(written("path")): the fake upstream")
            if let oldPort = fields["port"] { replace(oldPort.whole, with: "", "backend \(name) .port: the fake upstream's") }
        } else if let hostField = fields["host"] {
            let portText = fields["port"] == nil ? " .port = \"\(port)\";" : ""
            replace(hostField.whole, with: ".host = \"\(host)\";" + portText, "backend \(name) \(address): the fake upstream")
            if let portField = fields["port"] { replace(portField.value, with: port, "backend \(name) .port \(written("port")): the fake upstream's") }
        }
        if let value = fields["probe"]?.value, value.lowerBound < bytes.count, bytes[value.lowerBound] != UInt8(ascii: "{") {
            removedProbeNames[written("probe").trimmingCharacters(in: .whitespaces), default: 0] += 1
        }
        for field in ["probe", "proxy_header"] {
            guard let range = fields[field]?.whole else { continue }
            let blank = String(bytes[range].map { $0 == UInt8(ascii: "\n") ? "\n" : " " })
            replace(
                range, with: blank,
                field == "probe"
                    ? "backend \(name) .probe: removed, a health check's timing would decide the answers"
                    : "backend \(name) .proxy_header: removed, the fake upstream speaks no PROXY protocol")
        }
        for field in ["connect_timeout", "first_byte_timeout", "between_bytes_timeout"] {
            guard let range = fields[field]?.value, let seconds = Self.seconds(written(field)), seconds > Self.timeoutSeconds else { continue }
            replace(range, with: "3s", "backend \(name) .\(field) \(written(field)): 3s, so a silent upstream is given up in time")
        }
    }

    // MARK: ACLs

    /// The `{ … }` of `acl NAME [+flag …] {`, the name's end at `start`.
    private func aclBlock(after start: Int) -> Range<Int>? {
        var index = skipBlanks(start)
        index += word(at: index).utf8.count
        index = skipBlanks(index)
        while index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            index = skipBlanks(index + 1 + word(at: index + 1).utf8.count)
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{"), let close = closing(index) else { return nil }
        return index..<close
    }

    /// Each entry naming a host goes in parentheses. varnishd resolves the names when it
    /// compiles, and refuses one that does not resolve (`DNS lookup(api): Name or service not
    /// known`); a Compose service's or a cluster's names resolve where the configuration runs, not
    /// here. In parentheses an unresolved name is left out with a warning, so the ACL matches
    /// what it would match for a client that is none of those hosts.
    private mutating func acl(_ name: String, _ body: Range<Int>) {
        var index = body.lowerBound + 1
        var parenthesized = false
        while index < body.upperBound {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\""), let close = bytes[(index + 1)..<body.upperBound].firstIndex(of: UInt8(ascii: "\"")) {
                let address = String(decoding: bytes[(index + 1)..<close], as: UTF8.self)
                let end = bytes[close..<body.upperBound].firstIndex(of: UInt8(ascii: ";")) ?? body.upperBound
                if !parenthesized, Self.namesHost(address) {
                    let entry = index..<end
                    let written = String(decoding: bytes[entry], as: UTF8.self).trimmingCharacters(in: .whitespaces)
                    replace(
                        entry, with: "(\(written))",
                        "acl \(name) \"\(address)\": in parentheses, the name resolves where the configuration runs, not here")
                }
                index = end
                continue
            }
            if let skipped = skip(from: index) {
                index = skipped
                continue
            }
            if byte == UInt8(ascii: "(") { parenthesized = true }
            if byte == UInt8(ascii: ";") { parenthesized = false }
            index += 1
        }
    }

    /// Whether an ACL entry's address is a host name rather than an IPv4 or IPv6 address (with
    /// or without its mask); `localhost` resolves everywhere.
    static func namesHost(_ address: String) -> Bool {
        let host = address.split(separator: "/", maxSplits: 1).first.map(String.init) ?? address
        if host == "localhost" || host.isEmpty { return false }
        if host.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) { return false }
        if host.contains(":"), host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) { return false }
        return true
    }

    /// `.name = value;` at `start`: the whole field and its value (a string's bytes without quotes).
    private func field(at start: Int, before end: Int) -> (name: String, whole: Range<Int>, value: Range<Int>)? {
        let name = word(at: start + 1)
        var index = skipBlanks(start + 1 + name.utf8.count)
        guard !name.isEmpty, index < end, bytes[index] == UInt8(ascii: "=") else { return nil }
        index = skipBlanks(index + 1)
        var value = index..<index
        if index < end, bytes[index] == UInt8(ascii: "{"), let close = closing(index) {
            value = index..<(close + 1)
            index = close + 1
        } else if index < end, bytes[index] == UInt8(ascii: "\"") {
            let close = bytes[(index + 1)...].firstIndex(of: UInt8(ascii: "\"")) ?? end
            value = (index + 1)..<close
            index = close + 1
        } else {
            let stop = bytes[index..<end].firstIndex(of: UInt8(ascii: ";")) ?? end
            value = index..<stop
            index = stop
        }
        index = skipBlanks(index)
        if index < end, bytes[index] == UInt8(ascii: ";") { index += 1 }
        return (name, start..<index, value)
    }

    // MARK: Text

    private mutating func replace(_ range: Range<Int>, with text: String, _ reason: String) {
        rewrites.append(.init(file: file, range: range, text: text, reason: reason, location: location(of: range.lowerBound)))
    }

    private func location(of offset: Int) -> SourceLocation {
        let line = bytes[..<offset].reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        let lineStart = bytes[..<offset].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        return SourceLocation(path: display, line: line, column: offset - lineStart + 1)
    }

    /// Past a comment or a string starting at `index`, or nil when none starts there.
    private func skip(from index: Int) -> Int? {
        let byte = bytes[index]
        let next = index + 1 < bytes.count ? bytes[index + 1] : 0
        if byte == UInt8(ascii: "#") || (byte == UInt8(ascii: "/") && next == UInt8(ascii: "/")) {
            return bytes[index...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
        }
        if byte == UInt8(ascii: "/"), next == UInt8(ascii: "*") {
            var at = index + 2
            while at + 1 < bytes.count, !(bytes[at] == UInt8(ascii: "*") && bytes[at + 1] == UInt8(ascii: "/")) { at += 1 }
            return min(at + 2, bytes.count)
        }
        if byte == UInt8(ascii: "{"), next == UInt8(ascii: "\"") {
            var at = index + 2
            while at + 1 < bytes.count, !(bytes[at] == UInt8(ascii: "\"") && bytes[at + 1] == UInt8(ascii: "}")) { at += 1 }
            return min(at + 2, bytes.count)
        }
        if byte == UInt8(ascii: "\"") {
            return (bytes[(index + 1)...].firstIndex(of: UInt8(ascii: "\"")) ?? bytes.count - 1) + 1
        }
        return nil
    }

    /// The `}` matching the `{` at `open`, strings and comments skipped.
    private func closing(_ open: Int) -> Int? {
        var depth = 0
        var index = open
        while index < bytes.count {
            if index > open, let skipped = skip(from: index) {
                index = skipped
                continue
            }
            if bytes[index] == UInt8(ascii: "{") { depth += 1 }
            if bytes[index] == UInt8(ascii: "}") {
                depth -= 1
                if depth == 0 { return index }
            }
            index += 1
        }
        return nil
    }

    private func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "-")
    }

    private func isWordStart(_ index: Int) -> Bool { isWordByte(bytes[index]) && (index == 0 || !isWordByte(bytes[index - 1])) }

    private func word(at index: Int) -> String {
        var end = index
        while end < bytes.count, isWordByte(bytes[end]) { end += 1 }
        return String(decoding: bytes[index..<end], as: UTF8.self)
    }

    private func skipBlanks(_ index: Int) -> Int {
        var at = index
        while at < bytes.count,
            bytes[at] == UInt8(ascii: " ") || bytes[at] == UInt8(ascii: "\t") || bytes[at] == UInt8(ascii: "\n")
                || bytes[at] == UInt8(ascii: "\r")
        {
            at += 1
        }
        return at
    }

    /// The string after `index` (`include "x";`, `std.fileread("x")`): its text and its bytes.
    private func string(after index: Int) -> (text: String, range: Range<Int>)? {
        var at = skipBlanks(index)
        if at < bytes.count, bytes[at] == UInt8(ascii: "(") { at = skipBlanks(at + 1) }
        guard at < bytes.count, bytes[at] == UInt8(ascii: "\""), let close = bytes[(at + 1)...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        return (String(decoding: bytes[(at + 1)..<close], as: UTF8.self), (at + 1)..<close)
    }

    /// VCL's duration (`5s`, `500ms`, `1m`) in seconds.
    static func seconds(_ value: String) -> Double? {
        let digits = value.prefix { $0.isNumber || $0 == "." }
        guard let number = Double(digits) else { return nil }
        switch value.dropFirst(digits.count).trimmingCharacters(in: .whitespaces) {
        case "ms": return number / 1000
        case "s", "": return number
        case "m": return number * 60
        case "h": return number * 3600
        case "d": return number * 86400
        default: return nil
        }
    }
}
