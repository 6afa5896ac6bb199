import DetourDiagnostics
import DetourProxyCore
import DetourSupport
import Foundation
import Synchronization

/// What the rules work from besides the model: the codes detour made pages for, where
/// relative paths start, the neutral model of each HTTP frontend and of the pages HAProxy
/// loads at start, and each errorfile read and judged once.
final class HAProxyCheckContext: Sendable {
    let pageCodes: [Int]
    /// detour's pages folder, as given: a page file in it is detour's.
    let pagesFolder: String?
    let pageFiles: PageFileLookup
    /// HAProxy reads relative paths from the folder it runs in; detour from the main file's.
    let base: String
    /// Each frontend and listen section that speaks HTTP, in order: the coverage table's rows.
    let sites: [HAProxySite]
    /// Every page file a line names, as HAProxy opens them when it starts.
    let loaded: [ErrorPageRoute<HAProxyPage>]
    /// The `errorfile`, `http-error` and `errorloc` lines that answer some visitor
    /// (`HAProxyModel.answersInEffect`), worked out once for the rules that ask.
    let answering: Set<SourceLocation>
    /// By local path and code: what is wrong with the file, nil when it cannot be read.
    private let judged = Mutex<[String: [HAProxyErrorFile.Problem]?]>([:])

    init(pageCodes: [Int], pagesFolder: String?, maps: [PagePathMap], base: String, model: HAProxyModel, sites: [HAProxySite]) {
        self.pageCodes = pageCodes
        self.pagesFolder = pagesFolder
        let pageFiles = PageFileLookup(maps: maps)
        self.pageFiles = pageFiles
        self.base = base
        self.sites = sites
        loaded = HAProxySite.loaded(model) { Self.file(of: $0, base: base, in: pageFiles) }
        answering = model.answersInEffect()
    }

    func file(of page: HAProxyPage) -> PageFile { Self.file(of: page, base: base, in: pageFiles) }

    private static func file(of page: HAProxyPage, base: String, in pageFiles: PageFileLookup) -> PageFile {
        let path = page.path.hasPrefix("/") ? page.path : base + "/" + page.path
        return pageFiles.file(path, uri: path)
    }

    /// The file as findings name it: an absolute path as `PageFile` shows it, a relative one as
    /// written (HAProxy reads it from the folder it runs in; detour from the main file's).
    func shown(_ page: HAProxyPage, _ file: PageFile) -> String {
        page.path.hasPrefix("/") ? file.shown : "'\(page.path)'"
    }

    /// A whole-response page's file and what is wrong with it as HAProxy reads it, worked out
    /// once for the rules that each report part of it; nil when the file is missing or unreadable.
    func errorFile(_ page: HAProxyPage, in model: HAProxyModel) -> (file: PageFile, problems: [HAProxyErrorFile.Problem])? {
        let file = file(of: page)
        guard file.exists else { return nil }
        let key = "\(file.localPath)|\(page.code)"
        if let known = judged.withLock({ $0[key] }) { return known.map { (file, $0) } }
        let problems: [HAProxyErrorFile.Problem]? =
            switch FileBytes.read(file.localPath, limit: 1 << 20) {
            case .success(let contents): HAProxyErrorFile.problems(contents.bytes, code: page.code, bufferSize: model.bufferSize, maxRewrite: model.maxRewrite)
            case .failure(let failure) where failure.code == EFBIG: [.tooLarge(size: 1 << 20, limit: model.bufferSize)]
            case .failure: nil
            }
        judged.withLock { $0[key] = problems }
        return problems.map { (file, $0) }
    }
}
