import DetourDiagnostics
import DetourLayout
import DetourSupport
import Foundation

/// Checks and rewrites links written in Markdown:
/// - `other.md`, `../articles/x.md#part` — resolved against the file that contains the link, like MkDocs;
/// - `/articles/<slug>/`, `/codes/<status>/` — site-absolute help-site paths;
/// each becomes a link under `root`, so pages work wherever the site is mounted.
/// Anything with a scheme (`https:`, `mailto:`) or a bare `#fragment` is left as written.
public struct LinkResolver: Sendable {
    public enum Resolution: Equatable, Sendable {
        case keep
        case rewrite(String)
        case broken(String)
        /// A relative `.md` link to no article. Text pasted from a repository links to its other
        /// files (`CONTRIBUTING.md`, `docs/…`), which GitHub resolves and the site does not hold;
        /// the link stays as written, as MkDocs keeps it.
        case notInSite(String)
    }

    /// Content-relative `.md` path → slug.
    let articlesByPath: [String: String]
    let slugs: Set<String>
    let statuses: Set<Int>

    public init(articles: [Article], statuses: Set<Int>) {
        self.init(articlesByPath: Dictionary(articles.map { ($0.relativePath, $0.slug) }, uniquingKeysWith: { first, _ in first }), statuses: statuses)
    }

    /// `articlesByPath`: each article's content-relative `.md` path and its slug.
    public init(articlesByPath: [String: String], statuses: Set<Int>) {
        self.articlesByPath = articlesByPath
        slugs = Set(articlesByPath.values)
        self.statuses = statuses
    }

    /// - Parameters:
    ///   - fromPath: content-relative path of the file holding the link.
    ///   - root: prefix for help-site paths: relative (`../../`) on the site, the base URL on error pages.
    public func resolve(_ destination: String, fromPath: String, root: String) -> Resolution {
        if destination.isEmpty || destination.hasPrefix("#") || destination.hasPrefix("//") { return .keep }
        if Self.hasScheme(destination) { return .keep }
        let (path, fragment) = Self.splitFragment(destination)

        if path.hasSuffix(".md") {
            guard let slug = article(atMarkdownPath: path, from: fromPath) else {
                var message = "link '\(destination)' points to an article that does not exist"
                if let suggestion = closestArticle(to: path, from: fromPath) { message += "; did you mean '\(suggestion)'?" }
                return .notInSite(message)
            }
            return .rewrite(root + SiteLayout.article(slug) + fragment)
        }
        if path.hasPrefix("/") {
            let parts = path.split(separator: "/").map(String.init)
            switch parts.first {
            case "articles" where parts.count == 2:
                guard slugs.contains(parts[1]) else { return .broken("link '\(destination)' points to article '\(parts[1])', which does not exist") }
            case "codes" where parts.count == 2:
                guard let status = Int(parts[1]), statuses.contains(status) else {
                    return .broken("link '\(destination)' points to code '\(parts[1])', which has no definition")
                }
            default:
                return .keep
            }
            return .rewrite(root + parts.joined(separator: "/") + "/" + fragment)
        }
        return .keep
    }

    /// The article and heading a link with a fragment points to: a slug for `x.md#part` and
    /// `/articles/x/#part`, nil for `#part` (the page the link is on); nil for anything else.
    /// An article that does not exist is `resolve`'s report, not a missing heading.
    public func fragmentTarget(_ destination: String, fromPath: String) -> (slug: String?, fragment: String)? {
        let (path, fragment) = Self.splitFragment(destination)
        guard fragment.count > 1, !path.hasPrefix("//"), !Self.hasScheme(path) else { return nil }
        let id = String(fragment.dropFirst())
        if path.isEmpty { return (nil, id) }
        if path.hasSuffix(".md") { return article(atMarkdownPath: path, from: fromPath).map { ($0, id) } }
        let parts = path.split(separator: "/")
        guard path.hasPrefix("/"), parts.count == 2, parts[0] == "articles", slugs.contains(String(parts[1])) else { return nil }
        return (String(parts[1]), id)
    }

    /// The slug of the article a `.md` link names, relative to the linking file as in MkDocs.
    private func article(atMarkdownPath path: String, from fromPath: String) -> String? {
        let directory = (fromPath as NSString).deletingLastPathComponent
        return DisplayPath.normalize(directory.isEmpty ? path : directory + "/" + path).flatMap { articlesByPath[$0] }
    }

    /// The article nearest a missing one, written relative to the linking file as the link is.
    /// Names are compared, not paths, so a long folder does not stretch what counts as a typo;
    /// of articles sharing the name, the one sharing most folders with the link's target.
    private func closestArticle(to path: String, from fromPath: String) -> String? {
        let from = (fromPath as NSString).deletingLastPathComponent.split(separator: "/")
        guard let target = DisplayPath.normalize((from + [Substring(path)]).joined(separator: "/")) else { return nil }
        let targetParts = target.split(separator: "/")
        let names = Set(articlesByPath.keys.map { ($0 as NSString).lastPathComponent })
        guard let name = Suggestion.closest(to: String(targetParts.last ?? ""), among: names.sorted()) else { return nil }
        func sharedFolders(_ candidate: String) -> Int { zip(candidate.split(separator: "/").dropLast(), targetParts.dropLast()).prefix { $0 == $1 }.count }
        guard
            let found = articlesByPath.keys.filter({ ($0 as NSString).lastPathComponent == name })
                .max(by: { (sharedFolders($0), $1) < (sharedFolders($1), $0) })
        else { return nil }
        let to = found.split(separator: "/")
        let shared = zip(from, to.dropLast()).prefix { $0 == $1 }.count
        return (Array(repeating: "..", count: from.count - shared) + to.dropFirst(shared).map(String.init)).joined(separator: "/")
    }

    /// `scheme:` as RFC 3986 spells it (a letter, then letters, digits, `+`, `-`, `.`).
    static func hasScheme(_ destination: String) -> Bool {
        guard let colon = destination.firstIndex(of: ":"), colon != destination.startIndex else { return false }
        let scheme = destination[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter else { return false }
        return scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }

    private static func splitFragment(_ destination: String) -> (String, String) {
        guard let hash = destination.firstIndex(of: "#") else { return (destination, "") }
        return (String(destination[..<hash]), String(destination[hash...]))
    }
}
