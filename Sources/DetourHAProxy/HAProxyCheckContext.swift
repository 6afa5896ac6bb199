import DetourDiagnostics
import DetourProxyCore
import Foundation
import Synchronization

/// What the rules work from besides the model: the codes detour made pages for, where
/// relative paths start, and each page file read once.
final class HAProxyCheckContext: Sendable {
    let pageCodes: [Int]
    let pageFiles: PageFileLookup
    /// HAProxy reads relative paths from the folder it runs in; detour from the main file's.
    let base: String
    private let read = Mutex<[String: [UInt8]?]>([:])

    init(pageCodes: [Int], maps: [PagePathMap], base: String) {
        self.pageCodes = pageCodes
        pageFiles = PageFileLookup(maps: maps)
        self.base = base
    }

    func file(of page: HAProxyPage) -> PageFile {
        let path = page.path.hasPrefix("/") ? page.path : base + "/" + page.path
        return pageFiles.file(path, uri: path)
    }

    /// The file as findings name it: an absolute path as `PageFile` shows it, a relative one as
    /// written (HAProxy reads it from the folder it runs in; detour from the main file's).
    func shown(_ page: HAProxyPage, _ file: PageFile) -> String {
        page.path.hasPrefix("/") ? file.shown : "'\(page.path)'"
    }

    /// The file's bytes, nil when it cannot be read.
    func bytes(of file: PageFile) -> [UInt8]? {
        if let known = read.withLock({ $0[file.localPath] }) { return known }
        let bytes: [UInt8]? = switch FileBytes.read(file.localPath, limit: 1 << 20) {
        case .success(let contents): contents.bytes
        case .failure(let failure) where failure.code == EFBIG: [UInt8](repeating: 0, count: 1 << 20)
        case .failure: nil
        }
        read.withLock { $0[file.localPath] = bytes }
        return bytes
    }
}
