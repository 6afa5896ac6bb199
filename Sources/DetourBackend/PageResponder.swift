import DetourSite
import Foundation
import Hummingbird
import NIOCore

/// Answers each request of the page service from memory: the page for the asked status with
/// that status, in the negotiated format and language, never cached; the health, readiness
/// and metrics endpoints; a 400 with its reason for a status header that is no error status.
struct PageResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    let pages: BackendPages
    let metrics: BackendMetrics
    let log: RequestLog

    /// Each format's media types as `Accept` names them.
    static let formats: [(name: String, types: [String])] = BackendPages.formats.map { format in
        (format.name, format.name == "json" ? [format.mediaType, "application/json"] : [format.mediaType])
    }

    /// The headers ingress-nginx sends the default backend, read in one pass over the request's.
    struct IngressHeaders {
        var values: [String: String] = [:]

        static let names: Set<String> = [
            "x-code", "x-format", "x-request-id", "x-original-uri", "x-namespace", "x-ingress-name", "x-service-name", "x-service-port",
        ]

        init(_ headers: HTTPFields) {
            for field in headers {
                let name = field.name.canonicalName
                // The first of a repeated header counts.
                if Self.names.contains(name), values[name] == nil { values[name] = field.value }
            }
        }

        subscript(_ name: String) -> String? { values[name] }
    }

    func respond(to request: Request, context: Context) async throws -> Response {
        let started = ContinuousClock.now
        let headers = request.headers
        let ingress = IngressHeaders(headers)
        let asked = PageRequest.read(path: request.uri.path, code: ingress["x-code"])
        switch asked {
        case .health, .ready:
            return text("ok\n", status: .ok)
        case .metrics:
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(string: metrics.exposition)))
        case .invalid(let reason):
            metrics.refused()
            log.write(["status": .number(400), "error": .text(reason), "request_id": Self.safeID(ingress["x-request-id"]).map { .text($0) }])
            return text(reason + "\n", status: .badRequest)
        case .page, .notFound:
            break
        }
        var status = 404
        var fileExtension: String?
        if case .page(let asked, let ext) = asked {
            status = asked
            fileExtension = ext
        }
        // An extension names the format outright; an unknown one is no page of ours.
        var formatName = ContentNegotiation.format(accept: ingress["x-format"] ?? headers[.accept], formats: Self.formats)
        if let fileExtension {
            guard let named = BackendPages.formats.first(where: { $0.fileExtension == fileExtension }) else {
                return answer(status: 404, format: formatName, ingress: ingress, request: request, started: started)
            }
            formatName = named.name
        }
        return answer(status: status, format: formatName, ingress: ingress, request: request, started: started)
    }

    private func answer(status: Int, format formatName: String, ingress: IngressHeaders, request: Request, started: ContinuousClock.Instant) -> Response {
        let language = ContentNegotiation.language(acceptLanguage: request.headers[.acceptLanguage], languages: pages.languages)
        let requestID = Self.safeID(ingress["x-request-id"])
        let format = BackendPages.formats.first { $0.name == formatName } ?? BackendPages.formats[0]
        let body = pages.pageStatus(for: status).flatMap { pages.page($0, language: language, format: format.name) }
        var fields: HTTPFields = [.contentType: format.contentType, .cacheControl: "no-store", .contentLanguage: language]
        if let seconds = pages.retryAfter(status) { fields[.retryAfter] = String(seconds) }
        let buffer = body?.buffer(requestID: requestID) ?? ByteBuffer(string: "Error \(status)\n")
        if body == nil { fields[.contentType] = "text/plain; charset=utf-8" }
        metrics.served(BackendMetrics.Key(status: status, format: format.name, language: language))
        log.write([
            "status": .number(status), "format": .text(format.name), "language": .text(language),
            "request_id": requestID.map { .text($0) },
            "original_uri": ingress["x-original-uri"].map { .text(String($0.prefix(2048))) },
            "namespace": ingress["x-namespace"].map { .text(String($0.prefix(253))) },
            "ingress": ingress["x-ingress-name"].map { .text(String($0.prefix(253))) },
            "service": ingress["x-service-name"].map { .text(String($0.prefix(253))) },
            "service_port": ingress["x-service-port"].map { .text(String($0.prefix(16))) },
            "duration_us": .number(Self.microseconds(since: started)),
        ])
        if request.method == .head { fields[.contentLength] = String(buffer.readableBytes) }
        return Response(status: HTTPResponse.Status(code: status), headers: fields, body: .init(byteBuffer: request.method == .head ? ByteBuffer() : buffer))
    }

    private static func microseconds(since start: ContinuousClock.Instant) -> Int {
        let elapsed = (ContinuousClock.now - start).components
        return Int(elapsed.seconds) * 1_000_000 + Int(elapsed.attoseconds / 1_000_000_000_000)
    }

    private func text(_ text: String, status: HTTPResponse.Status) -> Response {
        Response(
            status: status, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
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
