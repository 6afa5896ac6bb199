import Foundation
import PackagePlugin

/// Builds the repository's `VERSION` into the `detour` command, the one place the version is
/// written: `detour --version`, the reports, the Debian package and its manual pages all read it.
@main
struct EmbedVersion: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let version = context.package.directoryURL.appending(path: "VERSION")
        let output = context.pluginWorkDirectoryURL.appending(path: "VersionFile.swift")
        return [
            .buildCommand(
                displayName: "Embedding VERSION",
                executable: try context.tool(named: "detour-embed").url,
                arguments: [version.path, output.path, "VersionFile"],
                inputFiles: [version],
                outputFiles: [output]
            )
        ]
    }
}
