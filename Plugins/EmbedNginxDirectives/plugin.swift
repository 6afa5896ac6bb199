import Foundation
import PackagePlugin

/// Builds the nginx directive table (`Directives/nginx-directives.tsv`, written by
/// scripts/nginx-directives/probe.py from the real nginx) into the target, so the `detour`
/// binary needs no file beside it and a regenerated table is in the next build.
@main
struct EmbedNginxDirectives: BuildToolPlugin {
    static let table = "nginx-directives.tsv"

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let source = target as? SourceModuleTarget else { return [] }
        let folder = source.directoryURL.appending(path: "Directives")
        let output = context.pluginWorkDirectoryURL.appending(path: "NginxDirectiveFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding the nginx directive table",
                executable: try context.tool(named: "detour-embed").url,
                arguments: [folder.path, output.path, "NginxDirectiveFiles", Self.table],
                inputFiles: [folder.appending(path: Self.table)],
                outputFiles: [output]
            )
        ]
    }
}
