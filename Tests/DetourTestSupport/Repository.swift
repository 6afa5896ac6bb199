import Foundation

/// Paths inside this repository, found from the test source file.
public enum Repository {
    public static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }()

    public static var content: URL { root.appendingPathComponent("content") }
    public static var templates: URL { root.appendingPathComponent("templates") }

    /// The `detour` executable built beside the test bundle.
    public static var detourExecutable: URL { executable("detour") }

    /// A product of this package built beside the test bundle.
    public static func executable(_ name: String) -> URL {
        let candidates = [
            Bundle.main.bundleURL.deletingLastPathComponent(),
            Bundle.main.bundleURL,
            root.appendingPathComponent(".build/debug"),
        ]
        for folder in candidates {
            let url = folder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return root.appendingPathComponent(".build/debug/\(name)")
    }
}
