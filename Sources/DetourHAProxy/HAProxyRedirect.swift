import DetourDiagnostics

/// A redirect that sends visitors to a page instead of answering with it: `errorloc`,
/// `errorloc302`, `errorloc303`, or `http-request redirect location`. The page is fetched by a
/// second request, which goes through the frontend's rules and routing again.
struct HAProxyRedirect: Sendable {
    /// The error it stands for; nil for an `http-request redirect`.
    var code: Int?
    var target: String
    /// 302 or 303, as the line asks.
    var status: Int
    /// `errorloc`, `errorloc303`, `http-request redirect`.
    var directive: String
    /// From `if` or `unless` on; empty when it applies to every request (and for `errorloc`).
    var condition: [String] = []
    var line: SourceLocation

    /// A path on the same site, fetched through the same frontend; one built per request
    /// (`/shop%[path]`) is not known from the file.
    var isLocal: Bool { target.hasPrefix("/") && !target.hasPrefix("//") && !target.contains("%") }

    /// The path of the page's own request (without its query).
    var path: String { String(target.prefix { $0 != "?" }) }

    /// The page's folder, for a condition that leaves the pages out: `/errors/503.html` → `/errors/`.
    var folder: String {
        let path = self.path
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return path }
        return String(path[...slash])
    }
}
