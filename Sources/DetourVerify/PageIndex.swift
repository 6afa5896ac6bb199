import DetourProxyCore
import DetourSupport
import Foundation

/// detour's page files by their bytes: a body that is one of them, byte for byte, is detour's
/// page (nginx, Apache and Caddy send a file as it is).
struct PageIndex: Sendable {
    private var pages: [[UInt8]: (code: Int?, path: String)] = [:]
    /// The codes the folder has an HTML page for, as `detour check` counts them.
    let codes: Set<Int>

    /// Every `.html`, `.json`, `.txt` and `.http` file below `folder`, named relative to `display`.
    init(folder: URL?, display: String) {
        codes = Set(PageFolder.codes(in: folder))
        guard let folder else { return }
        let root = folder.standardizedFileURL.path
        guard let walker = FileManager.default.enumerator(atPath: root) else { return }
        for case let relative as String in walker where [".html", ".json", ".txt", ".http"].contains(where: relative.hasSuffix) {
            guard case .success(let contents) = FileBytes.read(root + "/" + relative), !contents.bytes.isEmpty else { continue }
            let name = (relative as NSString).lastPathComponent
            let code = Int(name.prefix { $0.isNumber }).flatMap { (100...599).contains($0) ? $0 : nil }
            pages[contents.bytes] = (code, display + "/" + relative)
        }
    }

    func page(_ body: [UInt8]) -> (code: Int?, path: String)? { pages[body] }
}
