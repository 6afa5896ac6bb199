import DetourProxyCore

/// What one probe of `detour verify` saw: which route of which site, asked how, with the
/// upstream in which mode, and what came back.
public struct VerifyObservation: Sendable {
    /// Whose body a visitor got.
    public enum Body: Sendable, Equatable, CustomStringConvertible {
        /// One of detour's page files, byte for byte: its code (from its name) and path.
        case page(code: Int?, path: String)
        /// What the fake upstream wrote.
        case upstream
        /// The server's own built-in error page.
        case builtin
        /// Anything else the site served: one of its files, a page of its own, a redirect's text.
        case site
        case empty
        /// The whole text a page read that found no file leaves, where the server writes one
        /// (`VerifyServer.failedReadText`: varnishd's `synthetic()` of std.fileread's NULL).
        case failedRead(String)

        /// Whether the answer holds no page at all: empty, or only a failed read's text.
        public var holdsNothing: Bool {
            switch self {
            case .empty, .failedRead: true
            default: false
            }
        }

        public var description: String {
            switch self {
            case .page(_, let path): "detour's \(path)"
            case .upstream: "the upstream's own body"
            case .builtin: "the server's own error page"
            case .site: "the site's own body"
            case .empty: "an empty body"
            case .failedRead(let text): "the text '\(text)' a read of a missing file leaves"
            }
        }
    }

    public var site: Int
    public var route: Int
    public var method: String
    public var mode: FakeUpstream.Mode
    public var host: String
    /// The sandbox port it was asked on: one name may be served on several.
    public var port: Int
    /// Whether it was asked over TLS.
    public var tls = false
    public var path: String
    /// 0 when no HTTP answer came.
    public var status: Int
    public var body: Body
    public var contentType: String?
    public var cacheControl: String?
    public var retryAfter: String?
    /// Whether the request reached the fake upstream.
    public var reachedUpstream: Bool
    /// The answer's header names, lowercased.
    public var headerNames: Set<String> = []

    /// Why no page can change this answer, where the server sends it itself, empty, past every
    /// page (`SandboxPlan.unreplaceableAnswers`); nil for any other answer.
    func unreplaceable(in plan: SandboxPlan) -> String? {
        guard body == .empty else { return nil }
        return plan.unreplaceableAnswers.first { $0.mode == mode.description && $0.status == status }?.reason
    }

    /// `GET example.com/api/, upstream answering 502 → 502 with the upstream's own body`.
    public var evidence: String {
        "\(method) \(tls ? "https://" : "")\(host)\(path), upstream \(mode) → \(status == 0 ? "no answer" : String(status)) with \(body)"
    }
}
