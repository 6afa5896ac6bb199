import DetourTestSupport
import Foundation
import XCTest

/// Lines the real servers write when nothing has failed (starting and stopping, a 404 for a
/// missing favicon, a scanner's failed TLS handshake, health checks passing): `detour
/// diagnose` reads them and blames none of them on a failure.
final class RoutineLogLinesTests: XCTestCase {
    func testRoutineLinesAreNeverBlamedOnAFailure() throws {
        let logs = [try nginxServingAndRefusingScanners(), try haproxyServerComingUp(), try phpFPMStartingAndStopping()]
        for log in logs {
            XCTAssertFalse(log.isEmpty)
            let scratch = try TemporaryFolder()
            defer { scratch.remove() }
            try scratch.write(["routine.log": log])
            let result = try ProcessRunner.detour(["diagnose", "routine.log", "--content", Repository.content.path, "--format", "json"], in: scratch.url)
            XCTAssertEqual(result.status, 0, result.stderr)
            let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let causes = try XCTUnwrap(report["causes"] as? [[String: Any]])
            XCTAssertEqual(causes.map { $0["slug"] as? String ?? "" }, [], "routine lines blamed on a failure:\n\(log)")
        }
    }

    /// nginx over TLS: a page served, a favicon that is not there (404), a client speaking
    /// plain HTTP to the TLS port and one offering only TLS 1.0, as scanners do.
    private func nginxServingAndRefusingScanners() throws -> String {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let openssl = try RequiredTool.find("openssl")
        try SelfSignedCertificate.write(into: folder.path)
        let tls = "ssl_certificate \(folder.path)/cert.pem; ssl_certificate_key \(folder.path)/key.pem;"
        let outcome = try Reproduce.nginx("server { listen 127.0.0.1:PORT ssl; \(tls) root {{PREFIX}}; location = / { return 200 ok; } }") { port in
            let base = "https://127.0.0.1:\(port)"
            XCTAssertEqual(try Visitor.status(base + "/", ["-k"]), 200)
            XCTAssertEqual(try Visitor.status(base + "/favicon.ico", ["-k"]), 404)
            XCTAssertEqual(try Visitor.status("http://127.0.0.1:\(port)/"), 400)
            _ = try ProcessRunner.run(openssl, ["s_client", "-connect", "127.0.0.1:\(port)", "-tls1"], input: Data())
            return 200
        }
        XCTAssertTrue(outcome.log.contains("favicon.ico"), outcome.log)
        XCTAssertTrue(outcome.log.contains("SSL_do_handshake() failed"), outcome.log)
        return outcome.log
    }

    /// HAProxy checking a server that answers, with and without log-health-checks: the lines of
    /// checks that pass.
    private func haproxyServerComingUp() throws -> String {
        let upstream = try FakeUpstream(.answers)
        defer { upstream.stop() }
        let outcome = try Reproduce.haproxy(
            server: "127.0.0.1:\(upstream.port) check inter 200ms fall 1 rise 1", defaults: "option httpchk GET /\n    option log-health-checks", settle: 1)
        XCTAssertEqual(outcome.status, 200, outcome.log)
        let plain = try Reproduce.haproxy(server: "127.0.0.1:\(upstream.port) check inter 200ms fall 1 rise 1", defaults: "option httpchk GET /", settle: 1)
        let log = outcome.log + plain.log
        XCTAssertTrue(log.contains("succeeded, reason: Layer7 check passed"), log)
        return log
    }

    private func phpFPMStartingAndStopping() throws -> String {
        let php = try PHPFPMServer(scripts: ["ok.php": "<?php echo 'ok';"])
        usleep(300_000)
        let log = php.log
        php.stop()
        return log
    }
}
