import Foundation

/// SARIF 2.1.0, the format code-scanning services accept.
enum SARIFDiagnosticRenderer {
    private struct Log: Encodable {
        let version = "2.1.0"
        let schema = "https://json.schemastore.org/sarif-2.1.0.json"
        var runs: [Run]
        enum CodingKeys: String, CodingKey {
            case version
            case schema = "$schema"
            case runs
        }
    }
    private struct Run: Encodable {
        var tool: Tool
        var results: [Result]
    }
    private struct Tool: Encodable {
        var driver: Driver
    }
    private struct Driver: Encodable {
        let name = "detour"
        var version: String
        var rules: [Rule]
    }
    private struct Rule: Encodable {
        var id: String
        var shortDescription: Message?
        var fullDescription: Message?
        var defaultConfiguration: Configuration?
        var helpUri: String?
    }
    private struct Configuration: Encodable {
        var level: String
    }
    private struct Result: Encodable {
        var ruleId: String
        var level: String
        var message: Message
        var locations: [Location]
        var relatedLocations: [Location]?
    }
    private struct Message: Encodable {
        var text: String
    }
    private struct Location: Encodable {
        var physicalLocation: PhysicalLocation
        var message: Message?
    }
    private struct PhysicalLocation: Encodable {
        var artifactLocation: ArtifactLocation
        var region: Region
    }
    private struct ArtifactLocation: Encodable {
        var uri: String
    }
    private struct Region: Encodable {
        var startLine: Int
        var startColumn: Int
    }

    /// `catalogue`: what the rules mean, for the rules the results name; `help`: their pages.
    static func render(_ diagnostics: [Diagnostic], toolVersion: String, catalogue: [RuleDescription] = [], help: HelpLinks = .none) -> String {
        let ruleIDs = Set(diagnostics.map(\.rule)).sorted()
        let rules = ruleIDs.map { id in
            guard let about = catalogue.first(where: { $0.id == id }) else { return Rule(id: id, helpUri: help.url(id)) }
            return Rule(
                id: id, shortDescription: Message(text: about.summary), fullDescription: Message(text: "Visitors get: " + about.consequence),
                defaultConfiguration: Configuration(level: about.severity.rawValue), helpUri: help.url(id))
        }
        let results = diagnostics.map { diagnostic in
            let related = diagnostic.notes.compactMap { note in
                note.location.map { location(for: $0, message: note.message) }
            }
            // Notes without a place (the fix) would be lost as related locations: they follow
            // the message, one per line, as in the text output.
            let unplaced = diagnostic.notes.filter { $0.location == nil }.map(\.message)
            return Result(
                ruleId: diagnostic.rule,
                level: diagnostic.severity.rawValue,
                message: Message(text: ([diagnostic.message] + unplaced).joined(separator: "\n")),
                locations: [location(for: diagnostic.location, message: nil)],
                relatedLocations: related.isEmpty ? nil : related
            )
        }
        let log = Log(runs: [
            Run(tool: Tool(driver: Driver(version: toolVersion, rules: rules)), results: results)
        ])
        return JSONDiagnosticRenderer.encode(log)
    }

    /// A URI reference for a path: relative paths stay relative (to the folder the check ran
    /// in, as code scanning expects), absolute ones become `file:` URIs; both percent-encoded.
    static func uri(_ path: String) -> String {
        if path.hasPrefix("/") { return URL(fileURLWithPath: path).absoluteString }
        return path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
    }

    private static func location(for source: SourceLocation, message: String?) -> Location {
        Location(
            physicalLocation: PhysicalLocation(
                artifactLocation: ArtifactLocation(uri: uri(source.path)),
                region: Region(startLine: source.line, startColumn: source.column)
            ),
            message: message.map(Message.init)
        )
    }
}
