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

    /// The service over a build of the repository's shipped content, in a folder of its own
    /// (the caller removes it).
    static func overShippedSite() throws -> (folder: TemporaryFolder, service: PageServiceRun) {
        let folder = try SampleSite.shipped()
        XCTAssertEqual(try ProcessRunner.detour(["build", "--quiet"], in: folder.url).status, 0)
        return (folder, try PageServiceRun(site: folder.url))
    }

    init(site: URL, extra: [String] = []) throws {
        server = try ServerProcess(
            executable: Repository.detourExecutable, ["backend", "--bind", "127.0.0.1", "--port", String(port)] + extra, in: site,
            log: site.appendingPathComponent("backend.log"))
        XCTAssertTrue(LoopbackPort.waitUntilOpen(port, while: { self.server.isRunning }), "detour backend did not start: \(server.log)")
    }

    func stop() { server.stop() }

    /// One request to the service on its own connection; headers as written, repeated names allowed.
    func get(_ path: String, _ headers: [(String, String)] = [], method: String = "GET") -> Answer? {
        Self.send(to: port, path, headers, method: method)
    }

    /// The same to whatever listens on `port` (a proxy in front of the service).
    static func send(to port: Int, _ path: String, _ headers: [(String, String)], method: String = "GET", host: String = "pages.test") -> Answer? {
        var request = "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        return LoopbackPort.exchange(port, request + "\r\n").flatMap(parse)
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
