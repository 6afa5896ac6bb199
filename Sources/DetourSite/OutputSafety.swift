import DetourDiagnostics
import Foundation

/// The output folder is replaced whole, so it must never be, or contain, the sources.
enum OutputSafety {
    static func check(_ options: BuildOptions) -> Diagnostic? {
        let output = options.output.resolvingSymlinksInPath().path
        let project = options.base.resolvingSymlinksInPath().path
        let protected = [
            (project, "the project folder"),
            (options.content.resolvingSymlinksInPath().path, "the content folder '\(options.contentDisplay)'"),
            (options.templates.resolvingSymlinksInPath().path, "the templates folder '\(options.templatesDisplay)'"),
        ]
        for (path, name) in protected where path == output || path.hasPrefix(output == "/" ? "/" : output + "/") {
            return .error(
                "build.output-refused", "output folder '\(options.outputDisplay)' would replace \(name); choose a folder of its own such as 'public'",
                at: SourceLocation(path: options.outputDisplay))
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory), !isDirectory.boolValue {
            return .error(
                "build.output-refused", "output '\(options.outputDisplay)' exists and is not a folder", at: SourceLocation(path: options.outputDisplay))
        }
        return nil
    }
}
