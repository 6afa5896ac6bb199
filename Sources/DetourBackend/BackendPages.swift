import DetourLayout
import Foundation

/// A built site's error pages, read whole into memory at start: the service answers from
/// here and never opens a file per request, so no request can reach another file.
public struct BackendPages: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The formats the service negotiates, the default first.
    public static let formats = OutputFormat.negotiated

    /// language → status → format name → the page.
    let pages: [String: [Int: [String: PageBody]]]
    /// The site's languages, the default first.
    public let languages: [String]
    /// The statuses with a page, and the seconds a code's page asks clients to wait.
    public let statuses: Set<Int>
    let retryAfter: [Int: Int]

    /// Reads `<public>/errors/<language>/<status>.<ext>` of every language folder, and takes the
    /// default language to be the one whose pages `errors/<status>.html` repeats.
    public init(public root: URL) throws {
        let errors = root.appendingPathComponent(SiteLayout.errorsFolder)
        let manager = FileManager.default
        let folders = ((try? manager.contentsOfDirectory(atPath: errors.path)) ?? []).filter { name in
            var isFolder: ObjCBool = false
            return name != "cloudflare" && manager.fileExists(atPath: errors.appendingPathComponent(name).path, isDirectory: &isFolder) && isFolder.boolValue
        }.sorted()
        var pages: [String: [Int: [String: PageBody]]] = [:]
        var retryAfter: [Int: Int] = [:]
        for language in folders {
            for file in (try? manager.contentsOfDirectory(atPath: errors.appendingPathComponent(language).path)) ?? [] {
                let parts = file.split(separator: ".")
                guard parts.count == 2, let status = Int(parts[0]), (400...599).contains(status) else { continue }
                let url = errors.appendingPathComponent(language).appendingPathComponent(file)
                guard let format = Self.formats.first(where: { $0.fileExtension == parts[1] }), let data = manager.contents(atPath: url.path) else { continue }
                if format == .json, retryAfter[status] == nil, let seconds = Self.retryAfter(inProblem: data) { retryAfter[status] = seconds }
                pages[language, default: [:]][status, default: [:]][format.name] = PageBody([UInt8](data), format: format.name)
            }
        }
        pages = pages.filter { !$0.value.isEmpty }
        guard !pages.isEmpty else {
            throw Failure(description: "no error pages in '\(errors.path)'; build them with 'detour build' or name the built site with --public")
        }
        let languages = pages.keys.sorted()
        let defaultLanguage =
            languages.first { language in
                guard let (status, page) = pages[language]?.first(where: { $0.value["html"] != nil }) else { return false }
                let html = page["html"].map { $0.whole }
                return manager.contents(atPath: errors.appendingPathComponent("\(status).html").path).map { [UInt8]($0) }.map {
                    PageBody($0, format: "html").whole
                } == html
            } ?? languages[0]
        self.pages = pages
        self.languages = [defaultLanguage] + languages.filter { $0 != defaultLanguage }
        statuses = Set(pages.values.flatMap(\.keys))
        self.retryAfter = retryAfter
    }

    /// The page for `status` in `language` and `format`, falling back to the default language.
    func page(_ status: Int, language: String, format: String) -> PageBody? {
        pages[language]?[status]?[format] ?? pages[languages[0]]?[status]?[format]
    }

    func retryAfter(_ status: Int) -> Int? { retryAfter[status] }

    /// A status with no page of its own is answered with its class's page (500's for a 5xx,
    /// 404's, else 400's, for a 4xx), still with its own status: never another status.
    func pageStatus(for status: Int) -> Int? {
        if statuses.contains(status) { return status }
        let candidates = status >= 500 ? [500, 503, 502] : [404, 400]
        return candidates.first { statuses.contains($0) } ?? statuses.filter { $0 / 100 == status / 100 }.min()
    }

    /// `retry_after` of the problem details the build writes, where the code defines one.
    private static func retryAfter(inProblem data: Data) -> Int? {
        (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["retry_after"] as? Int
    }
}
