import Foundation
import PackagePlugin

/// Builds what the Varnish checker knows of VCL into the target: `VCL/varnish-vcl.tsv`
/// (methods, returns, variables, functions) and `VCL/builtin.vcl`, both written from the real
/// varnishd by scripts/varnish-vcl/generate.sh, so a regenerated table is in the next build.
@main
struct EmbedVarnishVCL: BuildToolPlugin {
    static let files = ["varnish-vcl.tsv", "builtin.vcl"]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let source = target as? SourceModuleTarget else { return [] }
        let folder = source.directoryURL.appending(path: "VCL")
        let output = context.pluginWorkDirectoryURL.appending(path: "VarnishVCLFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding the VCL table and Varnish's built-in VCL",
                executable: try context.tool(named: "detour-embed").url,
                arguments: [folder.path, output.path, "VarnishVCLFiles"] + Self.files,
                inputFiles: Self.files.map { folder.appending(path: $0) },
                outputFiles: [output]
            )
        ]
    }
}
