import ArgumentParser
import DetourContent
import DetourDiagnostics
import DetourRules
import Foundation

extension DiagnosticFormat: ExpressibleByArgument {}
extension TerminalStyle.Choice: ExpressibleByArgument {}

/// Options every command that reports diagnostics shares.
struct DiagnosticOptions: ParsableArguments {
    @Option(help: "How to print problems: text, json or sarif.")
    var format: DiagnosticFormat = .text

    @Flag(help: "Treat warnings as errors.")
    var strict = false

    @Flag(help: "List every finding in text, not one per cause with a note naming the others' places.")
    var verbose = false

    @Option(help: "Colour text findings: auto (on a terminal, unless NO_COLOR is set), always or never.")
    var color: TerminalStyle.Choice = .auto

    /// How text findings look on standard error, where they are printed.
    var style: TerminalStyle {
        TerminalStyle.resolve(
            color, descriptor: STDERR_FILENO, environment: ProcessInfo.processInfo.environment,
            base: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
    }

    /// Prints the findings (text to standard error, JSON and SARIF to standard output) and
    /// returns the exit status they call for. Each finding links its rule's page on the help
    /// site of the project whose `content` folder is given (default: ./content), when there is
    /// one; `baseURL` stands for its site.yml's (`detour build --base-url`).
    func report(
        _ diagnostics: [Diagnostic], catalogue: [RuleDescription] = [], extra: [String: any Encodable & Sendable] = [:], content: String = "content",
        baseURL: String? = nil
    ) -> Int32 {
        let help = Self.helpLinks(content: content, baseURL: baseURL)
        let rendered = format.render(
            diagnostics, toolVersion: Detour.version, catalogue: catalogue, extra: extra, style: style, grouped: !verbose, help: help)
        if format == .text {
            if !rendered.isEmpty { FileHandle.standardError.write(rendered) }
        } else {
            print(rendered, terminator: "")
        }
        let failed = diagnostics.hasErrors || (strict && diagnostics.contains { $0.severity == .warning })
        return failed ? 1 : 0
    }
}

extension DiagnosticOptions {
    /// Where the rules are explained: the rule pages of the project whose `content` folder is
    /// given, published at its site.yml's base_url or at `baseURL`.
    static func helpLinks(content: String = "content", baseURL: String? = nil) -> HelpLinks {
        RuleBook.helpLinks(baseURL: SiteBaseURL.forRulePages(contentRoot: URL(fileURLWithPath: content), publishedAt: baseURL))
    }
}

extension FileHandle {
    func write(_ text: String) { write(Data(text.utf8)) }
}
