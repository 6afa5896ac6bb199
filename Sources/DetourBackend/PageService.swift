import Foundation
import Hummingbird
import Logging
import NIOCore

/// `detour backend`: the error pages of a built site as an HTTP service, for Kubernetes
/// ingress controllers (ingress-nginx's custom errors, Traefik's errors middleware) and any
/// proxy that forwards a failed request's status. Reads every page at start, then answers
/// from memory; stops accepting on SIGTERM and finishes the requests in flight.
public struct PageService {
    public var publicFolder: URL
    public var bind: String
    public var port: Int
    public var logRequests: Bool

    public init(publicFolder: URL, bind: String, port: Int, logRequests: Bool) {
        self.publicFolder = publicFolder
        self.bind = bind
        self.port = port
        self.logRequests = logRequests
    }

    public func run() async throws {
        let pages = try BackendPages(public: publicFolder)
        var logger = Logger(label: "detour-backend")
        logger.logLevel = .critical
        let address = "\(bind.contains(":") ? "[\(bind)]" : bind):\(port)"
        let count = pages.statuses.count
        let languages = pages.languages.joined(separator: ", ")
        let app = Application(
            responder: PageResponder(pages: pages, metrics: BackendMetrics(), log: RequestLog(enabled: logRequests)),
            configuration: .init(address: .hostname(bind, port: port), serverName: nil),
            onServerRunning: { _ in
                FileHandle.standardError.write(Data("Serving \(count) error pages in \(languages) at http://\(address)/\n".utf8))
            },
            logger: logger
        )
        do {
            try await app.runService(gracefulShutdownSignals: [.sigterm, .sigint])
        } catch let error as IOError {
            throw BackendPages.Failure(description: "cannot listen on \(address): \(String(cString: strerror(error.errnoCode)))")
        }
    }
}
