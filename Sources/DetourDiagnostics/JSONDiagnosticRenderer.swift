import Foundation

/// `{"diagnostics": [...], "errors": N, "warnings": N}`, one object per finding, and what a
/// command adds beside them (`detour check`: the coverage).
enum JSONDiagnosticRenderer {
    private struct Report: Encodable {
        var diagnostics: [Diagnostic]
        var errors: Int
        var warnings: Int
        var extra: [String: any Encodable & Sendable]

        private struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(_ name: String) { stringValue = name }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(diagnostics, forKey: Key("diagnostics"))
            try container.encode(errors, forKey: Key("errors"))
            try container.encode(warnings, forKey: Key("warnings"))
            for (name, value) in extra { try container.encode(value, forKey: Key(name)) }
        }
    }

    static func render(_ diagnostics: [Diagnostic], extra: [String: any Encodable & Sendable] = [:]) -> String {
        let report = Report(
            diagnostics: diagnostics,
            errors: diagnostics.filter { $0.severity == .error }.count,
            warnings: diagnostics.filter { $0.severity == .warning }.count,
            extra: extra
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
