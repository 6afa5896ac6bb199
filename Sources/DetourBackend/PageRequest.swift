/// What a request to the page service asks for: an error page for a status (from ingress-nginx's
/// `X-Code`, or the path `/<status>` and `/<status>.<ext>` that Traefik's errors middleware and
/// people ask), a service endpoint, or nothing it can answer.
enum PageRequest: Equatable {
    case page(status: Int, fileExtension: String?)
    /// The default backend's request for a host or path no rule matches: the 404 page.
    case notFound
    case health, ready, metrics
    /// A clear 400 with the reason: the status header is not a status detour answers with.
    case invalid(String)

    /// `X-Code` wins over the path, which ingress-nginx rewrites to `/`.
    static func read(path: String, code: String?) -> PageRequest {
        if let code {
            let trimmed = code.trimmingWhitespace
            guard trimmed.count == 3, trimmed.allSatisfy(\.isASCIIDigit), let status = Int(trimmed), (400...599).contains(status) else {
                return .invalid("X-Code must be an error status from 400 to 599")
            }
            return .page(status: status, fileExtension: nil)
        }
        switch path {
        case "/healthz": return .health
        case "/readyz": return .ready
        case "/metrics": return .metrics
        default: break
        }
        let name = path.dropFirst()
        let parts = name.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let first = parts.first, first.count == 3, first.allSatisfy(\.isASCIIDigit), let status = Int(first), (400...599).contains(status),
            !name.contains("/")
        else { return .notFound }
        return .page(status: status, fileExtension: parts.count == 2 ? String(parts[1]) : nil)
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

extension String {
    var trimmingWhitespace: Substring {
        let start = firstIndex { $0 != " " && $0 != "\t" } ?? endIndex
        let end = lastIndex { $0 != " " && $0 != "\t" }.map(index(after:)) ?? start
        return self[start..<max(start, end)]
    }
}
