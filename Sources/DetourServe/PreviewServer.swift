import DetourSite
import Foundation
import Hummingbird
import Logging
import NIOCore

/// `detour serve`: builds the project into a temporary folder, serves it over HTTP on a
/// loopback address, and rebuilds as its content and templates change.
public struct PreviewServer {
    public var options: BuildOptions
    public var bind: String
    public var port: Int
    public var quiet: Bool

    public init(options: BuildOptions, bind: String, port: Int, quiet: Bool) {
        self.options = options
        self.bind = bind
        self.port = port
        self.quiet = quiet
    }

    public enum Failure: Error, CustomStringConvertible {
        case noFreePort(String)
        case temporaryFolder(String)
        case cannotListen(String, String)

        public var description: String {
            switch self {
            case .noFreePort(let address): "found no free port on \(address)"
            case .temporaryFolder(let reason): "cannot make a temporary folder: \(reason)"
            case .cannotListen(let address, let reason): "cannot listen on \(address): \(reason)"
            }
        }
    }

    public func run() async throws {
        let port = try ListeningPort.check(port, on: bind)
        let host = bind.contains(":") ? "[\(bind)]" : bind
        let address = "http://\(host):\(port)/"
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var options = options
        options.output = folder.url.appendingPathComponent("site")
        options.outputDisplay = "(preview)"
        // Links that leave the page (canonical, the error pages' help links) stay on the preview.
        options.baseURL = address

        let session = PreviewSession(options: options, quiet: quiet)
        // Watched from before the first build, so that a save made while it runs is built after it.
        let watcher = try FolderWatcher([options.content.path, options.templates.path])
        await session.buildAll()
        watcher.start { session.rebuild($0) }

        var logger = Logger(label: "detour-serve")
        logger.logLevel = .critical
        let quiet = quiet
        let app = Application(
            responder: PreviewResponder(root: options.output.path, reload: session.reload),
            configuration: .init(address: .hostname(bind, port: port), serverName: nil),
            onServerRunning: { _ in
                guard !quiet else { return }
                FileHandle.standardOutput.write(Data("Serving at \(address) (Ctrl-C to stop)\n".utf8))
            },
            logger: logger
        )
        do {
            try await app.runService()
        } catch let error as IOError {
            throw Failure.cannotListen("\(bind):\(port)", String(cString: strerror(error.errnoCode)))
        }
    }
}
