import Foundation

/// One request the runtime oracle sends to a generated site, and what the real server answered.
public struct OracleProbe: Sendable, CustomStringConvertible {
    public var host: String
    public var path: String
    public var status: Int
    public var body: String
    /// Whether the request reached the upstream (and so met the failure its path asks for).
    public var reachedUpstream = false

    /// The paths that make the `.byPath` upstream fail in each way the servers tell apart: its
    /// own 5xx statuses, a closed connection (502), silence (the server's timeout, 504).
    public static func failingPaths(under prefix: String, codes: [Int]) -> [String] {
        codes.map { "\(prefix)s\($0)" } + ["\(prefix)close", "\(prefix)hang"]
    }

    /// Sends `GET path?probe=<unique>&` with `Host: host` to the server on `port`; `upstream`
    /// tells whether the request reached it.
    public static func send(port: Int, host: String, path: String, upstream: FakeUpstream) -> OracleProbe {
        let marker = UUID().uuidString
        let request = "GET \(path)?probe=\(marker)& HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n"
        let answer = LoopbackPort.exchange(port, request, timeout: 15) ?? ""
        let status = answer.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) } ?? 0
        let body = answer.range(of: "\r\n\r\n").map { String(answer[$0.upperBound...]) } ?? ""
        return OracleProbe(host: host, path: path, status: status, body: body, reachedUpstream: upstream.wasAsked(for: marker))
    }

    /// The same answer, for a request that met the upstream's failure (the upstream was dead
    /// where the live one was reached).
    public var meetingTheFailure: OracleProbe {
        var probe = self
        probe.reachedUpstream = true
        return probe
    }

    /// What the visitor got is what detour promises: a request that met the upstream's failure
    /// gets an error status detour has a page for (`codes`) with that very page; any status
    /// detour has a page for comes with it; a success never carries one of its pages (a soft
    /// status). Other answers of a request that never reached the upstream (a redirect, a 404
    /// with no page made for it) are not detour's to judge.
    public func isGood(codes: Set<Int>) -> Bool {
        if codes.contains(status) { return body.contains("detour-page-\(status)") }
        if reachedUpstream { return false }
        if status >= 400 { return true }
        return status > 0 && !body.contains("detour-page-")
    }

    public var description: String {
        let shown = body.contains("detour-page-") ? "detour's page" : body.isEmpty ? "empty body" : "'\(body.prefix(60))'"
        return "GET \(host)\(path) -> \(status) \(shown)\(reachedUpstream ? "" : " (upstream not reached)")"
    }
}
