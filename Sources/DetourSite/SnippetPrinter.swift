import DetourContent
import DetourDiagnostics
import Foundation

/// `detour snippet`: one server's snippet, or a complete configuration around it, rendered
/// from the same content and templates as the build, without writing anything.
public enum SnippetPrinter {
    public static func render(_ server: SnippetTarget, installPath: String?, example: SnippetModel.Example?, options: BuildOptions) -> (String?, [Diagnostic]) {
        let (templates, content, diagnostics) = SiteBuilder.load(options)
        guard let templates, let content, !diagnostics.hasErrors else { return (nil, diagnostics) }
        let model = SnippetModel(content: content, installPath: installPath ?? content.site.installPath)
        guard let example else {
            return (templates.render(server.snippetTemplate, UntypedTemplateValue(value: model.dictionary())), diagnostics)
        }
        guard let exampleTemplate = server.exampleTemplate, templates.has(exampleTemplate) else {
            let at = SourceLocation(path: "\(options.templatesDisplay)/\(server.exampleTemplate ?? server.snippetTemplate).mustache")
            return (nil, diagnostics + [.error("template.missing", "no example configuration for \(server.rawValue)", at: at)])
        }
        // The snippets go inside the example as they are, indented where they sit.
        var rendered: [SnippetTarget: String] = [:]
        let parts: [SnippetTarget: Int] = server == .nginx ? [.nginxHTTP: 4, .nginx: 8, .nginxProxy: 12] : [server: 0]
        for (part, indent) in parts {
            rendered[part] = indented(templates.render(part.snippetTemplate, UntypedTemplateValue(value: model.dictionary())), by: indent)
        }
        return (templates.render(exampleTemplate, UntypedTemplateValue(value: model.dictionary(example: example, rendered: rendered))), diagnostics)
    }

    private static func indented(_ text: String, by spaces: Int) -> String {
        let pad = String(repeating: " ", count: spaces)
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? "" : pad + $0 }
            .joined(separator: "\n")
            .trimmingCharacters(in: .newlines)
    }
}
