import Foundation
import PackagePlugin

/// Builds every rule's hit and near miss (`Tests/Detour<Server>Tests/Fixtures/<server>/<rule>-hit/`
/// and `-near-miss/`, each with the findings `detour check` gives for it in `expected.txt`) into
/// the rule book, so `--explain` and the rule pages show the very cases the tests hold.
@main
struct EmbedRuleExamples: BuildToolPlugin {
    static let servers = ["nginx", "caddy", "haproxy", "apache", "varnish"]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let tests = context.package.directoryURL.appending(path: "Tests")
        let output = context.pluginWorkDirectoryURL.appending(path: "RuleExampleFiles.swift")
        let manager = FileManager.default
        var folders: [String] = []
        var inputs: [URL] = []
        for testTarget in (try? manager.contentsOfDirectory(atPath: tests.path)) ?? [] {
            for server in Self.servers {
                let fixtures = "\(testTarget)/Fixtures/\(server)"
                for scenario in (try? manager.contentsOfDirectory(atPath: tests.appending(path: fixtures).path)) ?? []
                where scenario.hasSuffix("-hit") || scenario.hasSuffix("-near-miss") {
                    let folder = "\(fixtures)/\(scenario)"
                    folders.append(folder + "/")
                    for file in (try? manager.contentsOfDirectory(atPath: tests.appending(path: folder).path)) ?? [] where !file.hasPrefix(".") {
                        inputs.append(tests.appending(path: "\(folder)/\(file)"))
                    }
                }
            }
        }
        return [
            .buildCommand(
                displayName: "Embedding the rules' hits and near misses from Tests/",
                executable: try context.tool(named: "detour-embed").url,
                arguments: [tests.path, output.path, "RuleExampleFiles"] + folders.sorted(),
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }
}
