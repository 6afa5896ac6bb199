import DetourTestSupport
import Foundation
import XCTest

/// `detour backend` started on 127.0.0.1 over a built site, stopped by its PID; requests sent
/// byte for byte, so no client adds a header of its own (URLSession's Accept-Language).
final class PageServiceRun {
    struct Answer {
        var status: Int
        var headers: [String: String]
        var body: String
    }

    let port = LoopbackPort.free()
    let server: ServerProcess

    init(site: URL, extra: [String] = []) throws {
        server = try ServerProcess(
            executable: Repository.detourExecutable, ["backend", "--bind", "127.0.0.1", "--port", String(port)] + extra, in: site,
            log: site.appendingPathComponent("backend.log"))
        XCTAssertTrue(LoopbackPort.waitUntilOpen(port, while: { self.server.isRunning }), "detour backend did not start: \(server.log)")
    }

    func stop() { server.stop() }

    /// One request on its own connection; headers as written, repeated names allowed.
    func get(_ path: String, _ headers: [(String, String)] = [], method: String = "GET") -> Answer? {
        var request = "\(method) \(path) HTTP/1.1\r\nHost: pages.test\r\nConnection: close\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        guard let raw = LoopbackPort.exchange(port, request + "\r\n") else { return nil }
        return Self.parse(raw)
    }

    static func parse(_ raw: String) -> Answer? {
        guard let split = raw.range(of: "\r\n\r\n") else { return nil }
        let lines = raw[..<split.lowerBound].components(separatedBy: "\r\n")
        guard let statusLine = lines.first, let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Answer(status: status, headers: headers, body: String(raw[split.upperBound...]))
    }
}
