import DetourDiagnostics
import DetourProxyCore
import Foundation

/// The server's own test of the sandboxed configuration (after `VerifyServer.prepare`, where the
/// server runs another form of it) and, when it refuses, every refusal it has: a server stops at
/// its first, so each refused statement it names (a directive it does not take, an include it
/// cannot read: `VerifyServer.blankable`) is blanked in the copy and the test run again, as one
/// fixes a file a statement at a time, until the test passes or refuses something that cannot
/// be blanked (a syntax error, unless it is on a line of its own: `VerifyServer.lineBlankable`);
/// a refused parameter (`invalid parameter "resolve"`) is blanked alone, an upstream with no
/// server is given the fake one, and a module installed here that the configuration does not
/// load is loaded (`SandboxRefusal.loads`). A configuration it refused is judged by its
/// refusals alone, unless another edition of the server lifts them (NGINX Plus, a later Caddy):
/// then, once every refusal is blanked and the test passes, it also runs, as `detour check`
/// judges it as that edition would serve it.
enum VerifyTest {
    /// Refusals collected at most, each one a test run.
    static let maximumRuns = 50

    /// The file the server runs, or nil when it refused (the report then says why).
    static func run(
        _ server: VerifyServer, binary: String, main: String, plan: SandboxPlan, context: SandboxContext, mainDisplay: String,
        environment: [String: String], into report: inout Verifier.Report
    ) -> String? {
        let copies = plan.files.map { (copy: context.copy(of: $0.path), display: $0.displayPath) }
        var findings: [Diagnostic] = []
        // Each blank: its place, and the word blanked there (empty: the whole statement).
        var blanked = Set<String>()
        var anotherEdition = false
        // The last syntax error blanked (`VerifyServer.lineBlankable`).
        var syntaxBlank: SourceLocation?
        // Per file, the last line blanked: a refusal first met after a blank, at or before it,
        // comes from the blank (a `}` an extra brace had closed; a check the server makes once
        // the whole file is read, such as nginx's certificate for `listen … ssl`, which may
        // have stood in a blanked include).
        var blankedThrough: [String: Int] = [:]
        var passed: String?
        // Whether the other form's rewrites are listed: those of the first run that made it.
        var preparedListed = false
        for run in 0..<maximumRuns {
            var runnable = main
            var refusal: String?
            if let prepare = server.prepare {
                let prepared = prepare(binary, main, plan, context)
                if !preparedListed, prepared.main != nil {
                    preparedListed = true
                    report.rewrites += prepared.rewrites
                    report.notProbed += prepared.notProbed
                }
                if let made = prepared.main { runnable = made } else { refusal = prepared.output }
            }
            if refusal == nil {
                let tested = Verifier.runToEnd(binary, server.test(runnable, context.folder) + plan.arguments, in: context.folder, environment: environment)
                guard tested.status != 0 else {
                    passed = runnable
                    break
                }
                refusal = tested.output
            }
            // An installed path not mapped is an empty folder of the sandbox (`unmapped/…`):
            // named as the path it stands for, with how to map it.
            let unmapped = context.folder + "/unmapped"
            var reading = server.readRefusal((refusal ?? "").replacingOccurrences(of: unmapped + "/", with: "/"), binary, copies, mainDisplay)
            let standIns = Self.paths(after: unmapped, in: refusal ?? "")
            reading.findings = reading.findings.map { finding in
                guard let path = standIns.first(where: { finding.message.contains($0) }) else { return finding }
                var finding = finding
                let folder = (path as NSString).deletingLastPathComponent
                finding.notes.append(.init("\(folder) is not mapped: the sandbox has an empty folder there (--map \(folder)=DIR reads a local one)"))
                return finding
            }
            // What no probe asks, and this server cannot read, is set aside and the test asked again.
            let asideNow = reading.setAside.filter { !blanked.contains(Self.key($0.location, nil)) }
            for aside in asideNow {
                blanked.insert(Self.key(aside.location, nil))
                blankedThrough[aside.location.path] = max(blankedThrough[aside.location.path] ?? 0, aside.location.line)
                Self.blank(aside.location, copies: copies, terminator: server.statementEnd)
                report.notProbed.append(aside)
            }
            // A module installed here that the configuration does not load is loaded, and the test asked again.
            let loadsNow = reading.loads.filter { !blanked.contains("load " + $0.text) }
            for load in loadsNow {
                blanked.insert("load " + load.text)
                Self.insert(load.text, at: load.location, copies: copies)
                report.rewrites.append((load.location, load.reason))
            }
            if !asideNow.isEmpty || !loadsNow.isEmpty, reading.findings.isEmpty, reading.missing == nil { continue }
            if run == 0 {
                if let idle = reading.servesNothing {
                    report.notProbed.append((SourceLocation(path: mainDisplay), idle))
                    return nil
                }
                if let missing = reading.missing {
                    report.refusal = "\(server.name) cannot run the configuration here: \(missing)"
                    return nil
                }
                if reading.findings.isEmpty {
                    let said = copies.reduce(refusal ?? "") { text, file in text.replacingOccurrences(of: file.copy, with: file.display) }
                    report.refusal = "\(server.name) refuses the configuration in the sandbox: \(said.trimmingCharacters(in: .whitespacesAndNewlines))"
                    return nil
                }
            }
            // After a blank, only refusals of the same kinds are the file's own: a syntax error
            // then may be the blank's echo (the `}` of a block that an extra brace had closed).
            anotherEdition = anotherEdition || reading.anotherEdition
            let new = reading.findings.indices.filter { index in
                let finding = reading.findings[index]
                if let through = blankedThrough[finding.location.path], finding.location.line <= through { return false }
                return !blanked.contains(Self.key(finding.location, reading.words[index]))
                    && (run == 0 || server.blankable.contains(finding.rule) || (syntaxBlank != nil && finding.rule == server.lineBlankable))
            }
            findings += new.map { reading.findings[$0] }
            // Past what cannot be blanked, or what blanking did not move, the server says no more.
            let readable = { (index: Int) in
                let finding = reading.findings[index]
                return server.blankable.contains(finding.rule)
                    || (finding.rule == server.lineBlankable
                        && Self.standsAlone(finding.location.line, in: copies.first { $0.display == finding.location.path }?.copy))
            }
            if let missing = reading.missing {
                // Past a blank, the server needs what it does not have (a module, a plugin's
                // encoder): what it would refuse after that is not read.
                report.notProbed.append((SourceLocation(path: mainDisplay), "\(missing); the refusals after it are not read"))
                break
            }
            guard !new.isEmpty, new.allSatisfy(readable) else { break }
            for index in new {
                let location = reading.findings[index].location
                blanked.insert(Self.key(location, reading.words[index]))
                blankedThrough[location.path] = max(blankedThrough[location.path] ?? 0, location.line)
                if reading.findings[index].rule == server.lineBlankable {
                    Self.blankLine(location, copies: copies)
                    syntaxBlank = location
                } else if let text = reading.insertions[index] {
                    Self.insert(text.replacingOccurrences(of: SandboxRefusal.upstreamMark, with: context.upstream), at: location, copies: copies)
                } else {
                    Self.blank(location, word: reading.words[index], copies: copies, terminator: server.statementEnd)
                }
            }
        }
        report.diagnostics = findings
        return findings.isEmpty || anotherEdition ? passed : nil
    }

    /// The paths `output` names under `folder` (`/tmp/…/unmapped/etc/haproxy/errors/503.http`
    /// → `/etc/haproxy/errors/503.http`), up to a quote, a blank or a closing bracket.
    static func paths(after folder: String, in output: String) -> [String] {
        output.components(separatedBy: folder).dropFirst().map { rest in String(rest.prefix { !"'\" \n\t)]".contains($0) }) }.filter { $0.hasPrefix("/") }
    }

    private static func key(_ location: SourceLocation, _ word: String?) -> String {
        "\(location.path):\(location.line) \(word ?? "")"
    }

    /// The statement at `location` in its copy made blanks, its line breaks kept: from the
    /// line's first word to `terminator` (nginx's `;`) or the line's end, a block it opens
    /// (`{` … `}`) with it; or only `word` in it, when the refusal names one.
    static func blank(_ location: SourceLocation, word: String? = nil, copies: [(copy: String, display: String)], terminator: UInt8?) {
        blank(location, copies: copies) { bytes in
            guard var range = statement(at: location.line, in: bytes, terminator: terminator) else { return nil }
            if let word { return Self.word(Array(word.utf8), in: bytes, within: range) ?? range }
            // A place inside the line (where a variable is used): the statements up to it go too.
            if location.column > 1, let lineStart = lineRange(location.line, in: bytes)?.lowerBound {
                let place = lineStart + location.column - 1
                while range.upperBound <= place, range.upperBound < bytes.count,
                    let next = statement(from: range.upperBound, in: bytes, terminator: terminator), next.upperBound > range.upperBound
                {
                    range = range.lowerBound..<next.upperBound
                }
            }
            return range
        }
    }

    /// The bytes `range` picks in `location`'s copy made blanks, its line breaks kept.
    private static func blank(_ location: SourceLocation, copies: [(copy: String, display: String)], range: ([UInt8]) -> Range<Int>?) {
        guard let copy = copies.first(where: { $0.display == location.path })?.copy, var bytes = FileManager.default.contents(atPath: copy).map([UInt8].init),
            let range = range(bytes)
        else { return }
        for index in range where bytes[index] != UInt8(ascii: "\n") { bytes[index] = UInt8(ascii: " ") }
        _ = FileManager.default.createFile(atPath: copy, contents: Data(bytes))
    }

    /// Whether line `line` of `copy` holds no brace and starts a statement: what comes before
    /// it, past blanks and comments, ends one (`;`, `{`, `}`) or is the file's start.
    static func standsAlone(_ line: Int, in copy: String?) -> Bool {
        guard let copy, let bytes = FileManager.default.contents(atPath: copy).map([UInt8].init), let range = lineRange(line, in: bytes) else { return false }
        guard !bytes[range].contains(UInt8(ascii: "{")), !bytes[range].contains(UInt8(ascii: "}")) else { return false }
        let before = String(decoding: bytes[..<range.lowerBound], as: UTF8.self).split(separator: "\n").map { line in
            (line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "").trimmingCharacters(in: .whitespaces)
        }
        guard let last = before.last(where: { !$0.isEmpty })?.last else { return true }
        return last == ";" || last == "{" || last == "}"
    }

    /// Line `location.line` of its copy made blanks.
    static func blankLine(_ location: SourceLocation, copies: [(copy: String, display: String)]) {
        blank(location, copies: copies) { lineRange(location.line, in: $0) }
    }

    /// The bytes of line `line` (1-based), its line feed left out.
    static func lineRange(_ line: Int, in bytes: [UInt8]) -> Range<Int>? {
        var start = 0
        for _ in 1..<max(line, 1) {
            guard let feed = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
            start = feed + 1
        }
        return start..<(bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count)
    }

    /// `text` written at the start of `location`'s line in its copy.
    static func insert(_ text: String, at location: SourceLocation, copies: [(copy: String, display: String)]) {
        guard let copy = copies.first(where: { $0.display == location.path })?.copy, var bytes = FileManager.default.contents(atPath: copy).map([UInt8].init),
            let start = statement(at: location.line, in: bytes, terminator: nil)?.lowerBound
        else { return }
        bytes.insert(contentsOf: Array(text.utf8), at: start)
        _ = FileManager.default.createFile(atPath: copy, contents: Data(bytes))
    }

    /// Where `word` stands alone (between blanks or the statement's ends) within `range`.
    static func word(_ word: [UInt8], in bytes: [UInt8], within range: Range<Int>) -> Range<Int>? {
        let separators: Set<UInt8> = [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: ";")]
        var start = range.lowerBound
        while start + word.count <= range.upperBound {
            let end = start + word.count
            if Array(bytes[start..<end]) == word, start == range.lowerBound || separators.contains(bytes[start - 1]),
                end == range.upperBound || separators.contains(bytes[end])
            {
                return start..<end
            }
            start += 1
        }
        return nil
    }

    /// The bytes of the statement that starts on line `line` (1-based).
    static func statement(at line: Int, in bytes: [UInt8], terminator: UInt8?) -> Range<Int>? {
        lineRange(line, in: bytes).flatMap { statement(from: $0.lowerBound, in: bytes, terminator: terminator) }
    }

    private static let blanks: Set<UInt8> = [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")]

    /// The bytes of the statement that starts at `start`.
    static func statement(from start: Int, in bytes: [UInt8], terminator: UInt8?) -> Range<Int>? {
        var depth = 0
        var quote: UInt8?
        // Braces inside a word open no block: nginx's `${name}`, and where lines end statements
        // (Caddy), a placeholder's `{http.request.uri}`.
        var wordBraces = 0
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            let next = index + 1 < bytes.count ? bytes[index + 1] : UInt8(ascii: "\n")
            if byte == UInt8(ascii: "{"), quote == nil,
                (index > start && bytes[index - 1] == UInt8(ascii: "$")) || (terminator == nil && !Self.blanks.contains(next))
            {
                wordBraces += 1
                index += 1
                continue
            }
            if byte == UInt8(ascii: "}"), quote == nil, wordBraces > 0 {
                wordBraces -= 1
                index += 1
                continue
            }
            if let open = quote {
                if byte == UInt8(ascii: "\\") {
                    index += 2
                    continue
                }
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "#") {
                // A comment runs to the line's end.
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
                continue
            } else if byte == UInt8(ascii: "{") {
                depth += 1
            } else if byte == UInt8(ascii: "}") {
                if depth == 0 { return start..<index }
                depth -= 1
                if depth == 0 { return start..<(index + 1) }
            } else if depth == 0, byte == terminator {
                return start..<(index + 1)
            } else if depth == 0, terminator == nil, byte == UInt8(ascii: "\n") {
                return start..<index
            }
            index += 1
        }
        return start..<bytes.count
    }
}
