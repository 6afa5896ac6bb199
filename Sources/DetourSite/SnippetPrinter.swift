import DetourContent
import DetourDiagnostics
import Foundation

/// `detour snippet`: one server's snippet, or a complete configuration around it, rendered
/// from the same content and templates as the build, without writing anything.
public enum SnippetPrinter {
    public struct Example: Sendable {
        public var listenHost: String
        public var listenPort: Int
        /// `host:port` of the application.
        public var upstream: String
        /// Absolute folder for the server's pid file, logs and temporary files.
        public var stateDirectory: String

        public init(listenHost: String, listenPort: Int, upstream: String, stateDirectory: String) {
            self.listenHost = listenHost
            self.listenPort = listenPort
            self.upstream = upstream
            self.stateDirectory = stateDirectory
        }
    }

    public static func render(_ server: ProxyServer, installPath: String?, example: Example?, options: BuildOptions) -> (String?, [Diagnostic]) {
        let (templates, templateDiagnostics) = TemplateSet.load(
            from: options.templates, displayRoot: options.templatesDisplay, folderRequired: options.templatesRequired)
        let (content, contentDiagnostics) = ContentLoader(root: options.content, displayRoot: options.contentDisplay).load()
        let diagnostics = templateDiagnostics + contentDiagnostics
        guard let templates, let content, !diagnostics.hasErrors else { return (nil, diagnostics) }
        let model = SnippetModel(content: content, installPath: installPath ?? content.site.installPath)
        guard let example else {
            return (templates.render(server.snippetTemplate, model.dictionary()), diagnostics)
        }
        guard let exampleTemplate = server.exampleTemplate, templates.has(exampleTemplate) else {
            let at = SourceLocation(path: "\(options.templatesDisplay)/\(server.exampleTemplate ?? server.snippetTemplate).mustache")
            return (nil, diagnostics + [.error("template.missing", "no example configuration for \(server.rawValue)", at: at)])
        }
        // The snippets go inside the example as they are, indented where they sit.
        var rendered: [ProxyServer: String] = [:]
        let parts: [ProxyServer: Int] = server == .nginx ? [.nginxHTTP: 4, .nginx: 8, .nginxProxy: 12] : [server: 0]
        for (part, indent) in parts {
            rendered[part] = indented(templates.render(part.snippetTemplate, model.dictionary()), by: indent)
        }
        let exampleModel = SnippetModel.Example(
            listenHost: example.listenHost, listenPort: example.listenPort, upstream: example.upstream, stateDirectory: example.stateDirectory)
        return (templates.render(exampleTemplate, model.dictionary(example: exampleModel, rendered: rendered)), diagnostics)
    }

    private static func indented(_ text: String, by spaces: Int) -> String {
        let pad = String(repeating: " ", count: spaces)
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? "" : pad + $0 }
            .joined(separator: "\n")
            .trimmingCharacters(in: .newlines)
    }
}
