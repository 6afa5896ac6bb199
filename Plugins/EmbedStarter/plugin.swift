import Foundation
import PackagePlugin

/// Builds the shipped content's code definitions, translations and logo into `detour init`'s
/// starter project, so a new project starts with every code the knowledge base defines, kept in
/// step with `content/` by the build.
@main
struct EmbedStarter: BuildToolPlugin {
    static let embedded = ["codes/", "translations/", "logo.svg"]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let content = context.package.directoryURL.appending(path: "content")
        let output = context.pluginWorkDirectoryURL.appending(path: "StarterContentFiles.swift")
        var inputs: [URL] = []
        for part in Self.embedded {
            let url = content.appending(path: part)
            guard let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.isRegularFileKey], options: .skipsHiddenFiles) else {
                inputs.append(url)
                continue
            }
            for case let file as URL in walker where (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                inputs.append(file)
            }
        }
        return [
            .buildCommand(
                displayName: "Embedding the starter project's codes and translations from content/",
                executable: try context.tool(named: "detour-embed").url,
                arguments: [content.path, output.path, "StarterContentFiles"] + Self.embedded,
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }
}
