import DetourContent
import DetourLayout
import DetourSite
import Foundation
import Hummingbird

/// Answers every request of `detour serve` from the served folder: pages with the live-reload
/// script added, error pages with their own status, the site's 404 page for anything else.
struct PreviewResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    let root: String
    let reload: LiveReload

    func respond(to request: Request, context: Context) async throws -> Response {
        guard request.method == .get || request.method == .head else {
            return Response(
                status: .methodNotAllowed, headers: [.allow: "GET, HEAD", .contentType: "text/plain; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: "Method not allowed\n")))
        }
        switch request.uri.path {
        case LiveReload.scriptPath:
            return file(Data(LiveReload.script.utf8), type: MediaType.byExtension["js"]!, status: .ok)
        case LiveReload.eventsPath:
            return events(since: request.uri.queryParameters.get("since").flatMap { Int($0) } ?? reload.generation)
        default:
            break
        }
        switch ServedPath.resolve(request.uri.path, under: root) {
        case .file(let path):
            guard let data = FileManager.default.contents(atPath: path) else { return notFound() }
            let relative = String(path.dropFirst(root.count))
            guard let errorPage = Self.errorPage(relative) else { return page(data, path: relative, status: .ok) }
            return page(data, path: relative, status: HTTPResponse.Status(code: errorPage.status), contentType: errorPage.contentType)
        case .redirect(let location):
            return Response(
                status: .movedPermanently, headers: [.location: location, .contentType: "text/plain; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: "Moved to \(location)\n")))
        case .notFound:
            return notFound()
        }
    }

    /// The site's own 404.html with status 404, or a line of text while no build has one.
    private func notFound() -> Response {
        let path = "/404.html"
        if case .file(let found) = ServedPath.resolve(path, under: root), let data = FileManager.default.contents(atPath: found) {
            return page(data, path: path, status: .notFound)
        }
        let html =
            "<!doctype html><html><head><meta charset=\"utf-8\"><title>Not found</title></head><body><h1>Not found</h1><p>No page here (and the site has no 404 page yet).</p></body></html>"
        return page(Data(html.utf8), path: path, status: .notFound)
    }

    private func page(_ data: Data, path: String, status: HTTPResponse.Status, contentType: String? = nil) -> Response {
        let type = contentType ?? MediaType.of(path: path)
        guard type.hasPrefix("text/html") else { return file(data, type: type, status: status) }
        return file(reload.inject(into: data), type: type, status: status)
    }

    private func file(_ data: Data, type: String, status: HTTPResponse.Status) -> Response {
        Response(
            status: status,
            headers: [.contentType: type, .cacheControl: "no-store", .contentLength: String(data.count)],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }

    /// Server-Sent Events: `reload` once a build newer than the page's has finished; a comment
    /// now and then, so a stream whose browser went away is noticed and closed.
    private func events(since: Int) -> Response {
        let reload = self.reload
        let body = ResponseBody { writer in
            try await writer.write(ByteBuffer(string: "retry: 500\n\n"))
            var quiet = 0
            while true {
                let generation = reload.generation
                if generation != since {
                    try await writer.write(ByteBuffer(string: "event: reload\ndata: \(generation)\n\n"))
                    break
                }
                try await Task.sleep(for: .milliseconds(20))
                quiet += 20
                if quiet >= 5_000 {
                    quiet = 0
                    try await writer.write(ByteBuffer(string: ": still here\n\n"))
                }
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"], body: body)
    }

    /// `/errors/502.html`, `/errors/de/502.json`: the status the page is made for and the
    /// Content-Type the proxies' snippets send it with. HAProxy's raw responses and log-format
    /// files are none: they are shown as text, with 200.
    static func errorPage(_ path: String) -> (status: Int, contentType: String)? {
        let parts = path.split(separator: "/")
        guard (2...3).contains(parts.count), parts[0] == Substring(SiteLayout.errorsFolder), let name = parts.last,
            let dot = name.firstIndex(of: "."), let status = Int(name[..<dot]), (400...599).contains(status)
        else { return nil }
        let fileExtension = String(name[name.index(after: dot)...])
        guard let format = OutputFormat.negotiated.first(where: { $0.fileExtension == fileExtension }) else { return nil }
        return (status, format.contentType)
    }
}
