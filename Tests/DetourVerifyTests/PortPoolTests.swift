import DetourTestSupport
import Foundation
import XCTest

@testable import DetourVerify

/// Two sandboxes started at once never get one port: HAProxy and Caddy would share it without
/// an error (SO_REUSEPORT), each answering some of the other's probes.
final class PortPoolTests: XCTestCase {
    private var folder: TemporaryFolder!
    private var claims: String { folder.path + "/claims" }

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
    }

    override func tearDown() {
        folder.remove()
    }

    func testAPortOnePoolHoldsIsNotAnothersUntilReleased() {
        let first = PortPool(claims: claims)
        let second = PortPool(claims: claims)
        let port = first.unused()
        XCTAssertNotEqual(port, 0)
        XCTAssertFalse(second.claim(port), "a port another pool holds")
        XCTAssertNotEqual(second.unused(), port)
        first.release()
        XCTAssertTrue(second.claim(port), "given back")
    }

    func testAClaimLeftByAProcessThatIsGoneIsTakenOver() throws {
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        try FileManager.default.createDirectory(atPath: claims, withIntermediateDirectories: true)
        try "\(gone.processIdentifier)".write(toFile: claims + "/47999", atomically: true, encoding: .utf8)
        XCTAssertTrue(PortPool(claims: claims).claim(47999))
        // A live process's claim (this one's) holds.
        try "\(getpid())".write(toFile: claims + "/47998", atomically: true, encoding: .utf8)
        XCTAssertFalse(PortPool(claims: claims).claim(47998))
    }

    /// Why the claims: HAProxy binds with SO_REUSEPORT, so a second one on the same port starts
    /// and takes some of the connections. Run as verify runs it (`-dR`), the second is refused
    /// in words verify knows to run again on.
    func testASecondHAProxyOnOnePortSharesItUnlessRunAsVerifyRunsIt() throws {
        let haproxy = try RequiredTool.find("haproxy")
        let folder = folder.path
        let port = PortPool(claims: claims).unused()
        let config = folder + "/haproxy.cfg"
        try """
        defaults
            mode http
            timeout connect 1s
            timeout client 1s
            timeout server 1s
        frontend web
            bind 127.0.0.1:\(port)
            http-request return status 200

        """.write(toFile: config, atomically: true, encoding: .utf8)
        func start(_ arguments: [String]) throws -> (Process, Pipe) {
            let process = Process()
            process.executableURL = haproxy
            process.arguments = arguments
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            try process.run()
            return (process, output)
        }
        func stillRunning(_ process: Process) -> Bool {
            Thread.sleep(forTimeInterval: 0.5)
            return process.isRunning
        }
        // Near miss: two plain `haproxy -db` both start on the port.
        let (plain, _) = try start(["-db", "-f", config])
        let (shared, _) = try start(["-db", "-f", config])
        XCTAssertTrue(stillRunning(plain) && stillRunning(shared), "a second HAProxy without -dR shares the port")
        for process in [plain, shared] {
            process.terminate()
            process.waitUntilExit()
        }
        let (first, _) = try start(VerifyServer.haproxy.run(config, folder))
        defer { first.terminate() }
        XCTAssertTrue(stillRunning(first))
        let (refused, output) = try start(VerifyServer.haproxy.run(config, folder))
        refused.waitUntilExit()
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertNotEqual(refused.terminationStatus, 0)
        XCTAssertTrue(said.contains("Address already in use"), said)
    }

    /// Caddy binds with SO_REUSEPORT too, and has no switch to turn it off: only the claims keep
    /// two sandboxes apart.
    func testASecondCaddyOnOnePortSharesIt() throws {
        let caddy = try RequiredTool.find("caddy")
        let folder = folder.path
        let port = PortPool(claims: claims).unused()
        var running: [Process] = []
        defer { running.forEach { $0.terminate() } }
        for answer in ["first", "second"] {
            try "{\n\tadmin off\n}\nhttp://127.0.0.1:\(port) {\n\trespond \"\(answer)\"\n}\n".write(
                toFile: "\(folder)/\(answer).caddy", atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = caddy
            process.arguments = ["run", "--config", "\(folder)/\(answer).caddy", "--adapter", "caddyfile"]
            process.environment = ["HOME": folder, "XDG_DATA_HOME": folder, "XDG_CONFIG_HOME": folder]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            running.append(process)
            Thread.sleep(forTimeInterval: 1)
        }
        XCTAssertTrue(running.allSatisfy(\.isRunning), "both Caddys listen on 127.0.0.1:\(port)")
        // Connections go to one or the other.
        var answers = Set<String>()
        for _ in 0..<40 where answers.count < 2 {
            answers.insert(try HTTPClient.get("http://127.0.0.1:\(port)/").body)
        }
        XCTAssertEqual(answers, ["first", "second"])
    }
}
