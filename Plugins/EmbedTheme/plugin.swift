import Foundation
import PackagePlugin

/// Builds the repository's `templates/` into the target as its built-in theme, so the `detour`
/// binary needs no folder beside it. The file list is read on every build, so a template added,
/// changed or removed is in the next binary without anyone editing generated code.
@main
struct EmbedTheme: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let templates = context.package.directoryURL.appending(path: "templates")
        let output = context.pluginWorkDirectoryURL.appending(path: "BuiltinThemeFiles.swift")
        var inputs: [URL] = []
        if let walker = FileManager.default.enumerator(at: templates, includingPropertiesForKeys: [.isRegularFileKey], options: .skipsHiddenFiles) {
            for case let file as URL in walker where (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                inputs.append(file)
            }
        }
        return [
            .buildCommand(
                displayName: "Embedding the built-in theme from templates/",
                executable: try context.tool(named: "detour-embed").url,
                arguments: [templates.path, output.path, "BuiltinThemeFiles"],
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }
}
