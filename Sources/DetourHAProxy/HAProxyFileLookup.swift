import DetourProxyCore
import Foundation

/// Where the files a configuration names while HAProxy reads it are looked for here (Lua
/// scripts, pattern files): a relative path from the main file's folder (HAProxy reads it from
/// the folder it runs in), an installed one only through `--map`, else left to the deployment.
struct HAProxyFileLookup: Sendable {
    var base: String
    var maps: [PagePathMap]

    /// Whether the file exists here; nil for an installed path no `--map` names.
    func exists(_ path: String) -> Bool? {
        if !path.hasPrefix("/") { return FileManager.default.fileExists(atPath: base + "/" + path) }
        guard maps.contains(where: { $0.covers(path) }) else { return nil }
        return FileManager.default.fileExists(atPath: PagePathMap.apply(maps, to: path))
    }
}
