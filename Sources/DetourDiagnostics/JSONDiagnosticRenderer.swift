import Foundation

/// `{"diagnostics": [...], "errors": N, "warnings": N}`, one object per finding.
enum JSONDiagnosticRenderer {
    private struct Report: Encodable {
        var diagnostics: [Diagnostic]
        var errors: Int
        var warnings: Int
    }

    static func render(_ diagnostics: [Diagnostic]) -> String {
        let report = Report(
            diagnostics: diagnostics,
            errors: diagnostics.filter { $0.severity == .error }.count,
            warnings: diagnostics.filter { $0.severity == .warning }.count
        )
        return encode(report)
    }

    static func encode<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
