import DetourDiagnostics
import DetourProxyCore
import Foundation

/// The server's own test of the sandboxed configuration (after `VerifyServer.prepare`, where the
/// server runs another form of it) and, when it refuses, every refusal it has: a server stops at
/// its first, so each refused statement it names (a directive it does not take, an include it
/// cannot read: `VerifyServer.blankable`) is blanked in the copy and the test run again, as one
/// fixes a file a statement at a time, until the test passes or refuses something that cannot
/// be blanked (a syntax error). A configuration it refused is judged by its refusals alone.
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
        var blanked = Set<SourceLocation>()
        var passed: String?
        for run in 0..<maximumRuns {
            var runnable = main
            var refusal: String?
            if let prepare = server.prepare {
                let prepared = prepare(binary, main, plan, context)
                if run == 0 {
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
            let reading = server.readRefusal(refusal ?? "", copies, mainDisplay)
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
            let new = reading.findings.filter { !blanked.contains($0.location) && (run == 0 || server.blankable.contains($0.rule)) }
            findings += new
            // Past what cannot be blanked, or what blanking did not move, the server says no more.
            guard reading.missing == nil, !new.isEmpty, new.allSatisfy({ server.blankable.contains($0.rule) }) else { break }
            for finding in new {
                blanked.insert(finding.location)
                Self.blank(finding.location, copies: copies, terminator: server.statementEnd)
            }
        }
        report.diagnostics = findings
        return findings.isEmpty ? passed : nil
    }

    /// The statement at `location` in its copy made blanks, its line breaks kept: from the
    /// line's first word to `terminator` (nginx's `;`) or the line's end, a block it opens
    /// (`{` … `}`) with it.
    static func blank(_ location: SourceLocation, copies: [(copy: String, display: String)], terminator: UInt8?) {
        guard let copy = copies.first(where: { $0.display == location.path })?.copy, var bytes = FileManager.default.contents(atPath: copy).map([UInt8].init)
        else { return }
        guard let range = statement(at: location.line, in: bytes, terminator: terminator) else { return }
        for index in range where bytes[index] != UInt8(ascii: "\n") { bytes[index] = UInt8(ascii: " ") }
        _ = FileManager.default.createFile(atPath: copy, contents: Data(bytes))
    }

    /// The bytes of the statement that starts on line `line` (1-based).
    static func statement(at line: Int, in bytes: [UInt8], terminator: UInt8?) -> Range<Int>? {
        var start = 0
        var number = 1
        while number < line {
            guard let feed = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
            start = feed + 1
            number += 1
        }
        var depth = 0
        var quote: UInt8?
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
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
