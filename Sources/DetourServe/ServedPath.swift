import DetourLayout
import Foundation

/// Where a request path leads inside the served folder. Only files below the folder are ever
/// named: `..` and `.` segments (also percent-encoded), NUL bytes, backslashes and symbolic
/// links that resolve outside it all lead nowhere.
enum ServedPath: Equatable {
    case file(String)
    /// A folder asked for without its final `/`: its address with one.
    case redirect(String)
    case notFound

    /// `requestPath`: the path of the request line, still percent-encoded, without the query.
    static func resolve(_ requestPath: String, under root: String) -> ServedPath {
        guard requestPath.hasPrefix("/"), let decoded = requestPath.removingPercentEncoding,
            !decoded.contains("\0"), !decoded.contains("\\")
        else { return .notFound }
        let segments = decoded.split(separator: "/", omittingEmptySubsequences: true)
        guard !segments.contains(where: { $0 == ".." || $0 == "." }) else { return .notFound }
        var candidate = root + (segments.isEmpty ? "" : "/" + segments.joined(separator: "/"))
        var info = stat()
        guard stat(candidate, &info) == 0 else { return .notFound }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            guard decoded.hasSuffix("/") else { return .redirect(requestPath + "/") }
            candidate = SiteLayout.file(of: candidate + "/")
        }
        guard let real = realPath(candidate), let realRoot = realPath(root), real.hasPrefix(realRoot + "/"),
            stat(real, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG
        else { return .notFound }
        return .file(real)
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
