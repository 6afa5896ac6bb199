import ArgumentParser
import DetourLayout
import DetourProxyCore
import Foundation

/// Where detour's pages are, and where the server's installed paths are here: the options
/// `detour check` and `detour verify` share.
struct PageOptions: ParsableArguments {
    @Option(help: "Folder of detour's generated error pages.")
    var pages: String?

    @Option(
        name: .customLong("map"), help: ArgumentHelp("Read INSTALL_PATH on the server as LOCAL_DIR here (repeatable).", valueName: "INSTALL_PATH=LOCAL_DIR"))
    var maps: [String] = []

    func validate() throws {
        for map in maps where PagePathMap(argument: map) == nil {
            throw ValidationError("--map takes INSTALL_PATH=LOCAL_DIR with an absolute INSTALL_PATH, not '\(map)'")
        }
    }

    /// `--pages`, else the default pages folder when it exists in `cwd`.
    func pagesPath(in cwd: URL) -> String? {
        pages ?? (FileManager.default.fileExists(atPath: cwd.appendingPathComponent(SiteLayout.defaultPagesFolder).path) ? SiteLayout.defaultPagesFolder : nil)
    }

    var pathMaps: [PagePathMap] { maps.compactMap { PagePathMap(argument: $0) } }
}
