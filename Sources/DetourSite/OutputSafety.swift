import DetourDiagnostics
import Foundation

/// The output folder is replaced whole, so it must never be, or contain, the sources.
enum OutputSafety {
    static func check(_ options: BuildOptions) -> Diagnostic? {
        let output = options.output.resolvingSymlinksInPath().path
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).resolvingSymlinksInPath().path
        let protected = [options.content, options.templates].map { $0.resolvingSymlinksInPath().path } + [cwd]
        for path in protected where path == output || path.hasPrefix(output == "/" ? "/" : output + "/") {
            return .error("build.unsafe-output", "output folder '\(options.outputDisplay)' would replace \(path == cwd ? "the current folder" : "'\(path)'"); choose a folder of its own such as 'public'", at: SourceLocation(path: options.outputDisplay))
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory), !isDirectory.boolValue {
            return .error("build.unsafe-output", "output '\(options.outputDisplay)' exists and is not a folder", at: SourceLocation(path: options.outputDisplay))
        }
        return nil
    }
}
