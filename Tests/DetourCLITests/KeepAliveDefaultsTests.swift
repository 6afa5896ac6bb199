import DetourTestSupport
import Foundation
import XCTest

/// How long each server keeps a connection open once it has answered on it, with nothing
/// configured: what upstream-closed-connection tells operators behind a load balancer (a
/// target must keep idle connections longer than the load balancer does), measured on the
/// real servers.
final class KeepAliveDefaultsTests: XCTestCase {
    /// The response's head, and the seconds from the request until the server closed the
    /// connection; `patience` or more when it was still open then.
    private func idleClose(port: Int, patience: Int) throws -> (head: String, seconds: Double) {
        let connection = try XCTUnwrap(LoopbackPort.connection(to: port, timeout: patience), "nothing listens on \(port)")
        defer { close(connection) }
        let start = Date()
        XCTAssertTrue(LoopbackPort.send("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n", on: connection))
        let response = LoopbackPort.receiveAll(connection)
        let head = response.components(separatedBy: "\r\n\r\n").first ?? ""
        return (head, Date().timeIntervalSince(start))
    }

    func testApacheClosesAnIdleConnectionAfterFiveSeconds() throws {
        var seconds = 0.0
        let outcome = try Reproduce.apache("") { port in
            seconds = try self.idleClose(port: port, patience: 20).seconds
            return 0
        }
        XCTAssertEqual(seconds, 5, accuracy: 1, outcome.log)
    }

    /// The default sync worker reuses no connection at all; a threaded one keeps it 2 s.
    func testGunicornsSyncWorkerClosesAtOnceAndItsThreadsAfterTwoSeconds() throws {
        let folder = try TemporaryFolder(files: [
            "app.py": """
            def application(environ, start_response):
                start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "2")])
                return [b"ok"]

            """
        ])
        defer { folder.remove() }
        for (threads, closesAfter) in [(1, 0.0), (2, 2.0)] {
            let port = LoopbackPort.free()
            let gunicorn = try ServerProcess(
                "gunicorn", LogReproduction.gunicornArguments(folder.path, port) + ["--threads", "\(threads)"],
                log: folder.url.appendingPathComponent("gunicorn-\(threads).log"))
            defer { gunicorn.stop() }
            XCTAssertTrue(LoopbackPort.waitUntilOpen(port, while: { gunicorn.isRunning }), gunicorn.log)
            let (head, seconds) = try idleClose(port: port, patience: 20)
            XCTAssertTrue(head.contains(threads == 1 ? "Connection: close" : "Connection: keep-alive"), head)
            XCTAssertEqual(seconds, closesAfter, accuracy: 0.7, "--threads \(threads)")
        }
    }

    /// nginx's default is 75 s (`keepalive_timeout`); a test waits twelve, well past the others'.
    func testNginxKeepsAnIdleConnectionLongerThanTheOthers() throws {
        let port = LoopbackPort.free()
        let nginx = try NginxServer(
            config: NginxServer.httpBlock("server { listen 127.0.0.1:\(port); location / { return 200 ok; } }"))
        defer { nginx.stop() }
        XCTAssertTrue(LoopbackPort.waitUntilOpen(port, while: { nginx.isRunning }), nginx.errorLog)
        let (head, seconds) = try idleClose(port: port, patience: 12)
        XCTAssertTrue(head.hasPrefix("HTTP/1.1 200"), head)
        XCTAssertGreaterThanOrEqual(seconds, 11.5)
    }
}
