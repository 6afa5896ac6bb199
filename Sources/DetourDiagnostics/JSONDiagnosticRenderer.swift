import Foundation

/// `{"diagnostics": [...], "errors": N, "warnings": N}`, one object per finding (with `help`,
/// its rule's page, where the help site is known), and what a command adds beside them
/// (`detour check`: the coverage).
enum JSONDiagnosticRenderer {
    /// A finding's own fields, and its rule's page beside them.
    private struct Finding: Encodable {
        var diagnostic: Diagnostic
        var help: String?

        func encode(to encoder: any Encoder) throws {
            try diagnostic.encode(to: encoder)
            var container = encoder.container(keyedBy: Report.Key.self)
            try container.encodeIfPresent(help, forKey: Report.Key("help"))
        }
    }

    private struct Report: Encodable {
        var diagnostics: [Finding]
        var errors: Int
        var warnings: Int
        var extra: [String: any Encodable & Sendable]

        struct Key: CodingKey {
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

    static func render(_ diagnostics: [Diagnostic], extra: [String: any Encodable & Sendable] = [:], help: HelpLinks = .none) -> String {
        let report = Report(
            diagnostics: diagnostics.map { Finding(diagnostic: $0, help: help.url($0.rule)) },
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
