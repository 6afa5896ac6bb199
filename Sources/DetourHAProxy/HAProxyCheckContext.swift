import DetourDiagnostics
import DetourProxyCore
import DetourSupport
import Foundation
import Synchronization

/// What the rules work from besides the model: the codes detour made pages for, where
/// relative paths start, and each errorfile read and judged once.
final class HAProxyCheckContext: Sendable {
    let pageCodes: [Int]
    let pageFiles: PageFileLookup
    /// HAProxy reads relative paths from the folder it runs in; detour from the main file's.
    let base: String
    /// What answers each code for each HTTP frontend and listen section, by the proxy's index
    /// in the model: the coverage table's rows, worked out once for it and for the rules.
    let answers: [Int: [(code: Int, answer: String?)]]
    /// By local path and code: what is wrong with the file, nil when it cannot be read.
    private let judged = Mutex<[String: [HAProxyErrorFile.Problem]?]>([:])

    init(pageCodes: [Int], maps: [PagePathMap], base: String, model: HAProxyModel) {
        self.pageCodes = pageCodes
        pageFiles = PageFileLookup(maps: maps)
        self.base = base
        var answers: [Int: [(code: Int, answer: String?)]] = [:]
        for (index, proxy) in model.proxies.enumerated() where proxy.isHTTPEntry {
            answers[index] = HAProxyCoverage.answers(proxy, in: model, codes: pageCodes)
        }
        self.answers = answers
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
