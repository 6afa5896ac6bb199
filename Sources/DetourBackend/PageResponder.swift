import DetourLayout
import NIOCore
import NIOHTTP1

/// Answers each request of the page service from memory: the page for the asked status with
/// that status, in the negotiated format and language, never cached; the health, readiness
/// and metrics endpoints; a 400 with its reason for a status header that is no error status.
/// Synchronous: it runs on the connection's event loop.
struct PageResponder: Sendable {
    let pages: BackendPages
    let metrics: BackendMetrics
    let log: RequestLog

    /// Each format's media types as `Accept` names them.
    static let formats: [(name: String, types: [String])] = BackendPages.formats.map { format in
        (format.name, format.name == "json" ? [format.mediaType, "application/json"] : [format.mediaType])
    }

    /// `negotiated` is the connection's event loop's memory of negotiations.
    func respond(to head: HTTPRequestHead, negotiated: NegotiationCache) -> PageAnswer {
        let started = ContinuousClock.now
        let ingress = IngressHeaders(head.headers)
        let path = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? head.uri
        var status = 404
        var named: String?
        switch PageRequest.read(path: path, code: ingress.code) {
        case .health, .ready:
            return text("ok\n", status: 200)
        case .metrics:
            return PageAnswer(
                status: 200, headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8"), ("Cache-Control", "no-store")],
                body: ByteBuffer(string: metrics.exposition))
        case .invalid(let reason):
            metrics.refused()
            log.write(["status": .number(400), "error": .text(reason), "request_id": Self.safeID(ingress.requestID).map { .text($0) }])
            return text(reason + "\n", status: 400)
        case .notFound:
            break
        case .page(let asked, nil):
            status = asked
        case .page(let asked, let fileExtension?):
            // An extension names the format outright; an unknown one is no page of ours.
            if let format = BackendPages.formats.first(where: { $0.fileExtension == fileExtension }) {
                status = asked
                named = format.name
            }
        }
        let accept = ingress.format ?? head.headers.first(name: "accept") ?? ""
        let format = named ?? negotiated.format(accept: accept) { ContentNegotiation.format(accept: $0, formats: Self.formats) }
        let language = negotiated.language(acceptLanguage: head.headers.first(name: "accept-language") ?? "") { [pages] in
            ContentNegotiation.language(acceptLanguage: $0, languages: pages.languages)
        }
        return answer(status: status, format: format, language: language, ingress: ingress, started: started)
    }

    private func answer(status: Int, format formatName: String, language: String, ingress: IngressHeaders, started: ContinuousClock.Instant) -> PageAnswer {
        let requestID = Self.safeID(ingress.requestID)
        let format = BackendPages.formats.first { $0.name == formatName } ?? BackendPages.formats[0]
        let body = pages.pageStatus(for: status).flatMap { pages.page($0, language: language, format: format.name) }
        var headers = [
            (name: "Content-Type", value: body == nil ? "text/plain; charset=utf-8" : format.contentType), ("Cache-Control", "no-store"),
            ("Content-Language", language),
        ]
        if let seconds = pages.retryAfter(status) { headers.append(("Retry-After", String(seconds))) }
        let buffer = body?.buffer(requestID: requestID) ?? ByteBuffer(string: "Error \(status)\n")
        metrics.served(BackendMetrics.Key(status: status, format: format.name, language: language))
        log.write([
            "status": .number(status), "format": .text(format.name), "language": .text(language),
            "request_id": requestID.map { .text($0) },
            "original_uri": ingress.originalURI.map { .text(String($0.prefix(2048))) },
            "namespace": ingress.namespace.map { .text(String($0.prefix(253))) },
            "ingress": ingress.ingressName.map { .text(String($0.prefix(253))) },
            "service": ingress.serviceName.map { .text(String($0.prefix(253))) },
            "service_port": ingress.servicePort.map { .text(String($0.prefix(16))) },
            "duration_us": .number(Self.microseconds(since: started)),
        ])
        return PageAnswer(status: status, headers: headers, body: buffer)
    }

    private static func microseconds(since start: ContinuousClock.Instant) -> Int {
        let elapsed = (ContinuousClock.now - start).components
        return Int(elapsed.seconds) * 1_000_000 + Int(elapsed.attoseconds / 1_000_000_000_000)
    }

    private func text(_ text: String, status: Int) -> PageAnswer {
        PageAnswer(status: status, headers: [("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store")], body: ByteBuffer(string: text))
    }

    /// A request ID as shown on the page: letters, digits and `-_.:`, at most 128 of them; any
    /// other value is not shown rather than shown changed.
    static func safeID(_ value: String?) -> String? {
        guard let value, !value.isEmpty, value.utf8.count <= 128,
            value.utf8.allSatisfy({
                $0 < 128 && (UInt8(ascii: "a")...UInt8(ascii: "z") ~= $0 | 0x20 || UInt8(ascii: "0")...UInt8(ascii: "9") ~= $0 || "-_.:".utf8.contains($0))
            })
        else { return nil }
        return value
    }
}
