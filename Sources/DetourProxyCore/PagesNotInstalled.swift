import DetourDiagnostics
import Foundation

/// A configuration checked where its pages are not installed (the example's `/usr/share/detour`
/// on a laptop): every page it names is missing for one cause, the folder. Its hundreds of
/// missing-file findings, one per code, language and format, become one, naming the folder
/// and the `--map` that checks the local build in its place.
public struct PagesNotInstalled: Sendable {
    /// The site's output folder as typed (`public`), and where it is here.
    public var output: String
    public var outputURL: URL
    /// The pages' folder inside the output (`errors`).
    public var pagesFolder: String

    public init(output: String, outputURL: URL, pagesFolder: String) {
        self.output = output
        self.outputURL = outputURL
        self.pagesFolder = pagesFolder
    }

    /// `report` with its missing-file findings made one, when no page it names exists here and
    /// no `--map` says where they are; else `report` as it is.
    public func apply(to report: ProxyCheck.Report, maps: [PagePathMap]) -> ProxyCheck.Report {
        guard maps.isEmpty, !report.pageFiles.isEmpty, !report.pageFiles.contains(where: \.exists) else { return report }
        let isMissingFile = { (diagnostic: Diagnostic) in diagnostic.rule.hasSuffix("." + SharedCheck.missingFile.rawValue) }
        let instances = report.diagnostics.filter(isMissingFile).sortedForOutput()
        guard let first = instances.first else { return report }
        let paths = Set(report.pageFiles.map(\.installPath)).sorted()
        let folder = Self.commonFolder(paths)
        var message =
            FileManager.default.fileExists(atPath: folder)
            ? "the pages folder '\(folder)' holds none of the \(paths.count) pages the configuration names"
            : "the pages folder '\(folder)' does not exist here, and the configuration names \(paths.count) pages in it"
        message += "; " + fix(paths, folder: folder)
        let codes = Set(instances.flatMap { $0.codes ?? [] }).sorted()
        let grouped = Diagnostic(
            .error, first.rule, message, at: first.location,
            notes: first.notes.filter { $0.location != nil }
                + (instances.count > 1 ? [.init("\(instances.count) findings of \(first.rule) have this one cause")] : []),
            codes: codes.isEmpty ? nil : codes)
        var result = report
        result.diagnostics = report.diagnostics.filter { !isMissingFile($0) }
        result.diagnostics.insert(grouped, at: report.diagnostics.firstIndex(where: isMissingFile) ?? 0)
        return result
    }

    /// What to do: the pages sit under `<prefix>/errors/` where the server runs, as the site's
    /// output lays them out, so `--map <prefix>=public` reads the local build in their place.
    private func fix(_ paths: [String], folder: String) -> String {
        let marker = "/" + pagesFolder + "/"
        guard let path = paths.first, let cut = path.range(of: marker, options: .backwards),
            paths.allSatisfy({ $0.hasPrefix(path[..<cut.upperBound]) })
        else {
            return "install the pages there, or check a local copy of them with --map \(folder)=DIR"
        }
        let map = "--map \(cut.lowerBound == path.startIndex ? "/" : String(path[..<cut.lowerBound]))=\(output)"
        let built = FileManager.default.fileExists(atPath: outputURL.appendingPathComponent(String(path[path.index(after: cut.lowerBound)...])).path)
        return built
            ? "install \(output)/ there, or check against your local build with \(map)"
            : "build the site with 'detour build' and check against it with \(map), or install the pages there"
    }

    /// The deepest folder holding every path.
    static func commonFolder(_ paths: [String]) -> String {
        var common: [Substring] = paths.first.map { Array($0.split(separator: "/", omittingEmptySubsequences: false).dropLast()) } ?? []
        for path in paths.dropFirst() {
            let folders = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            common = Array(common.prefix(zip(common, folders).prefix { $0 == $1 }.count))
        }
        let folder = common.joined(separator: "/")
        return folder.isEmpty ? "/" : folder
    }
}
