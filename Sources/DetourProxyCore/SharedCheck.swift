/// The checks every dialect decides on the neutral model (`ErrorPageChecks`). Each has one rule
/// id suffix in every dialect, so `nginx.code-not-covered` and `apache.code-not-covered` are
/// the same check worded for two servers.
public enum SharedCheck: String, CaseIterable, Sendable {
    /// A code detour made a page for that nothing in a site answers.
    case codeNotCovered = "code-not-covered"
    /// A route sends a page file that does not exist.
    case missingFile = "error-page-missing-file"
    /// The upstream's own errors reach visitors as it wrote them.
    case upstreamPassThrough = "upstream-errors-pass-through"
    /// The page's own request is handed to the upstream that failed.
    case proxied = "error-page-proxied"
    /// A password, refusal or condition stands between visitors and the page.
    case protected = "error-page-protected"
    /// The page goes out with a success status.
    case softStatus = "error-page-soft-status"

    /// `haproxy.code-not-covered`.
    public func id(_ dialect: String) -> String { dialect + "." + rawValue }
}
