import DetourDiagnostics
import DetourProxyCore
import DetourTestSupport
import Foundation
import XCTest

@testable import DetourVarnish

/// Generated VCL given to the real `varnishd -C` and to detour: both accept it, or both refuse
/// it at the same line. `VCL_ORACLE_N` and `VCL_ORACLE_SEED` run more or other ones.
final class VCLDifferentialTests: XCTestCase {
    func testVarnishdAndDetourAgreeOnGeneratedVCL() throws {
        let varnishd = try RequiredTool.find("varnishd")
        let environment = ProcessInfo.processInfo.environment
        let count = Int(environment["VCL_ORACLE_N"] ?? "") ?? 150
        let seed = UInt64(environment["VCL_ORACLE_SEED"] ?? "") ?? 20_261_125
        let state = try TemporaryFolder()
        defer { state.remove() }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: state.path)
        var generator = VCLGenerator(seed: seed)
        var refused = 0
        var disagreements: [String] = []
        for index in 0..<count {
            let (text, fault) = generator.next()
            let file = state.url.appendingPathComponent("case-\(index).vcl")
            try text.write(to: file, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
            let real = try ProcessRunner.run(varnishd, ["-C", "-f", file.path, "-n", state.path + "/work-\(index)"])
            let ours = VarnishChecker.check(.init(main: file, mainDisplay: file.path, pages: nil, maps: [])).diagnostics.filter {
                $0.rule == VarnishRules.syntax.id
            }
            let realLine = Self.firstLine(in: real.stderr)
            if real.status != 0 { refused += 1 }
            // Where varnishd refuses its own built-in VCL, a block of the VCL was left open:
            // detour says so at the VCL's end, where the fix is.
            let intoBuiltin = real.stderr.contains("('<builtin>' Line")
            let sameLine = intoBuiltin ? ours.first?.message.contains("still open") == true : realLine == nil || realLine == ours.first?.location.line
            let agrees = (real.status == 0) == ours.isEmpty && (real.status == 0 || sameLine)
            if !agrees {
                disagreements.append(
                    "case \(index) (planted: \(fault.map { "\($0)" } ?? "none")): varnishd \(real.status == 0 ? "accepts" : "refuses at line \(realLine.map(String.init) ?? "?")"), detour \(ours.first.map { "refuses at \($0.location.line): \($0.message)" } ?? "accepts")\n\(Self.message(real.stderr))\n\(text)"
                )
            }
        }
        XCTAssertEqual(disagreements, [], "seed \(seed)")
        // The generator is worth running only while it makes both verdicts.
        XCTAssertGreaterThan(refused, count / 4)
        XCTAssertLessThan(refused, count * 3 / 4)
    }

    /// The line of the first `('file' Line N Pos M)` varnishd prints.
    static func firstLine(in output: String) -> Int? {
        guard let range = output.range(of: #"' Line (\d+) Pos"#, options: .regularExpression) else { return nil }
        return Int(output[range].dropFirst(7).dropLast(4))
    }

    /// varnishd's refusal without its C source or file-cleanup noise.
    static func message(_ output: String) -> String {
        output.split(separator: "\n").filter { !$0.hasPrefix("Could not delete") }.prefix(12).joined(separator: "\n")
    }
}
