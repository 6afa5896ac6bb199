/// A theme compiled for rendering: every template by name, partials resolved by name when
/// they render (a missing one renders as nothing, as in swift-mustache).
public struct CompiledTemplates: Sendable {
    private let renderer: TemplateRenderer

    /// Nil when a template uses what is not compiled (inheritance, dynamic partials) or does
    /// not parse.
    public init?(sources: [String: String]) {
        var templates: [String: [TemplateNode]] = [:]
        for (name, source) in sources {
            guard let nodes = try? TemplateParser.compile(source) else { return nil }
            templates[name] = nodes
        }
        renderer = TemplateRenderer(templates: templates)
    }

    /// Nil for a name there is no template for.
    public func render(_ name: String, _ data: TemplateData) -> String? {
        guard let nodes = renderer.templates[name] else { return nil }
        var stack = [data]
        var output = ""
        renderer.render(nodes, &stack, TemplateRenderer.Frame(), into: &output)
        return output
    }
}
