import ArgumentParser
import Foundation

@main
struct Detour: ParsableCommand {
    /// The repository's VERSION, built in. Every command reads it as it starts, so it is
    /// trimmed in Swift: Foundation's `trimmingCharacters` goes through NSString, which a
    /// profile of a quick `detour check` found among the costs of its start.
    static let version: String = {
        guard let bytes = VersionFile.files.first.flatMap({ Data(base64Encoded: $0.base64) }) else { return "unknown" }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let first = text.firstIndex(where: { !$0.isWhitespace }), let last = text.lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(text[first...last])
    }()

    static let configuration = CommandConfiguration(
        commandName: "detour",
        abstract: "Branded error pages and a help site for websites behind a reverse proxy.",
        discussion: """
            detour turns Markdown troubleshooting articles and YAML error-code definitions into self-contained error pages for nginx, Caddy, HAProxy and Apache (and, as an HTTP service, for Kubernetes ingress controllers) and a help site, checks that a proxy configuration really serves those pages, and maps error-log lines to the articles that explain them.

            Exit status: 0 clean, 1 errors (or warnings with --strict), 2 when detour verify cannot run the server, 64 usage error.
            """,
        version: version,
        subcommands: [
            InitCommand.self, BuildCommand.self, ServeCommand.self, BackendCommand.self, SnippetCommand.self, CheckCommand.self, VerifyCommand.self,
            DiagnoseCommand.self,
        ]
    )
}
