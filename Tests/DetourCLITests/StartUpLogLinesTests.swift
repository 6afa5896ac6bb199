import DetourLogs
import DetourTestSupport
import Foundation
import XCTest

/// Each real server started with the warnings servers give at start (a host name it cannot
/// determine, a module loaded twice, a certificate without OCSP, missing timeouts, an unformatted
/// Caddyfile, a PHP extension that is not there) and stopped: `detour diagnose` blames none of its
/// lines on a failure, and counts them as routine, not as lines an article should explain.
final class StartUpLogLinesTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
    }

    override func tearDown() {
        folder.remove()
    }

    func testNginxConfigurationWarningsAndNotices() throws {
        let tls = try selfSignedCertificate()
        let outcome = try Reproduce.nginx(
            """
            proxy_headers_hash_max_size 1; proxy_headers_hash_bucket_size 1;
            server { listen 127.0.0.1:PORT; server_name a; location / { proxy_pass http://127.0.0.1:9; } }
            server { listen 127.0.0.1:PORT; server_name a; }
            server { listen 127.0.0.1:\(LoopbackPort.free()) ssl; \(tls.nginx) ssl_stapling on; }
            """
        ) { _ in 0 }
        assertWrote(["conflicting server name \"a\"", "\"ssl_stapling\" ignored", "could not build optimal proxy_headers_hash", "[notice]"], outcome.log)
        // The connection that found the port open is a request's line, at the info level.
        try assertAllRoutine(outcome.log, except: "client closed connection while waiting for request")
    }

    func testApacheWithoutServerNameAModuleLoadedTwiceAndTLS() throws {
        let tls = try selfSignedCertificate()
        let port = LoopbackPort.free()
        let modules = ["mpm_event", "authz_core", "ssl", "ssl"].map { "LoadModule \($0)_module /usr/lib/apache2/modules/mod_\($0).so" }
        try folder.write([
            "apache.conf": """
            ServerRoot \(folder.path)
            PidFile \(folder.path)/apache.pid
            ErrorLog \(folder.path)/error.log
            \(getuid() == 0 ? "User nobody\nGroup nogroup" : "")
            Listen 127.0.0.1:\(port)
            \(modules.joined(separator: "\n"))
            <VirtualHost 127.0.0.1:\(port)>
                SSLEngine on
                \(tls.apache)
            </VirtualHost>

            """
        ])
        let output = try startAndStop("apache2", ["-f", folder.path + "/apache.conf", "-DFOREGROUND"], port: port)
        let log = ((try? folder.read("error.log")) ?? "") + output
        assertWrote(["AH00558: apache2: Could not reliably determine", "AH01574: module ssl_module is already loaded", "[ssl:warn]", "AH00489:"], log)
        try assertAllRoutine(log)
    }

    func testHAProxyWithoutTimeouts() throws {
        let port = LoopbackPort.free()
        try folder.write([
            "haproxy.cfg": """
            defaults
                mode http
                option httplog
            frontend web
                bind 127.0.0.1:\(port)
                default_backend app
            backend app
                server app1 127.0.0.1:9

            """
        ])
        let log = try startAndStop("haproxy", ["-f", folder.path + "/haproxy.cfg", "-db"], port: port)
        assertWrote(["[NOTICE]", "config : missing timeouts for frontend 'web'", "   | While not properly invalid", "log format ignored"], log)
        try assertAllRoutine(log)
    }

    func testCaddyWithAnUnformattedCaddyfileStartingAndStopping() throws {
        let port = LoopbackPort.free()
        try folder.write(["Caddyfile": "{\n admin off\n auto_https off\n}\nhttp://127.0.0.1:\(port) {\n  reverse_proxy 127.0.0.1:9\n    respond /x 200\n}\n"])
        let log = try startAndStop(
            "caddy", ["run", "--config", folder.path + "/Caddyfile", "--adapter", "caddyfile"], port: port, environment: Reproduce.caddyEnvironment(folder))
        assertWrote(["Caddyfile input is not formatted", "admin endpoint disabled", "automatic HTTPS is completely disabled", "exiting; byeee"], log)
        try assertAllRoutine(log)
    }

    func testPHPFPMWithAMissingExtensionAndOneLoadedTwice() throws {
        let options = ["-d", "log_errors=1", "-d", "extension=detour_missing", "-d", "extension=calendar", "-d", "extension=calendar"]
        let fpm = try PHPFPMServer(scripts: [:], arguments: options)
        XCTAssertTrue(Poll.until { FileManager.default.fileExists(atPath: fpm.socket) }, fpm.output)
        let log = fpm.output + fpm.log
        fpm.stop()
        assertWrote(
            ["PHP Startup: Unable to load dynamic library 'detour_missing'", "Module \"calendar\" is already loaded", "NOTICE: fpm is running"], log)
        try assertAllRoutine(log)
    }

    /// Varnish's manager says how it starts and stops at its Info and Debug levels; it also
    /// reports the child it stops as `Error: Child (…) died signal=15`, which stays unexplained:
    /// at that level a child that died is a failure.
    func testVarnishStartingAndStopping() throws {
        let port = LoopbackPort.free()
        try folder.write(["default.vcl": "vcl 4.1;\nbackend default { .host = \"127.0.0.1\"; .port = \"9\"; }\n"])
        let log = try startAndStop(
            "varnishd", ["-F", "-a", "127.0.0.1:\(port)", "-f", folder.path + "/default.vcl", "-n", folder.path + "/varnish"], port: port)
        let levelled = log.split(separator: "\n").filter { $0.hasPrefix("Info: ") || $0.hasPrefix("Debug: ") }
        XCTAssertTrue(levelled.contains { $0.hasPrefix("Debug: Version: varnish-") }, log)
        let report = try diagnosis(log)
        XCTAssertEqual(report.causes.map(\.slug), [], log)
        XCTAssertEqual(report.routine.count, levelled.count, log)
    }

    // MARK: Helpers

    /// Starts `tool`, waits for it to listen on `port`, stops it by its PID and gives what it wrote.
    private func startAndStop(_ tool: String, _ arguments: [String], port: Int, environment: [String: String] = [:]) throws -> String {
        let server = try ServerProcess(tool, arguments, environment: environment, log: folder.url.appendingPathComponent("\(tool).out"))
        XCTAssertTrue(LoopbackPort.waitUntilOpen(port, while: { server.isRunning }), server.log)
        usleep(300_000)
        server.stop()
        return server.log
    }

    private func assertWrote(_ warnings: [String], _ log: String, file: StaticString = #filePath, line: UInt = #line) {
        for warning in warnings { XCTAssertTrue(log.contains(warning), "the server did not write \(warning):\n\(log)", file: file, line: line) }
    }

    /// `log` read by `detour diagnose`: no cause, every line routine but those of a request
    /// the test made (the lines that hold `request`).
    private func assertAllRoutine(_ log: String, except request: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws {
        let report = try diagnosis(log)
        let requests = request.map { marker in log.split(separator: "\n").filter { $0.contains(marker) }.count } ?? 0
        XCTAssertEqual(report.causes.map(\.slug), [], "lines blamed on a failure:\n\(log)", file: file, line: line)
        XCTAssertEqual(report.unexplained.count, requests, "lines counted as unexplained:\n\(log)", file: file, line: line)
        XCTAssertEqual(report.routine.count, report.lines - requests, file: file, line: line)
        XCTAssertGreaterThan(report.lines, 2, file: file, line: line)
    }

    private func diagnosis(_ log: String) throws -> DiagnoseReport {
        try folder.write(["server.log": log])
        let result = try ProcessRunner.detour(["diagnose", "server.log", "--content", Repository.content.path, "--format", "json"], in: folder.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        return try JSONDecoder().decode(DiagnoseReport.self, from: Data(result.stdout.utf8))
    }

    /// A certificate for localhost that no CA issued, and the directives that serve it.
    private func selfSignedCertificate() throws -> (nginx: String, apache: String) {
        let openssl = try RequiredTool.find("openssl")
        let result = try ProcessRunner.run(
            openssl, ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "key.pem", "-out", "cert.pem", "-days", "2", "-subj", "/CN=localhost"],
            in: folder.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        let (certificate, key) = (folder.path + "/cert.pem", folder.path + "/key.pem")
        return ("ssl_certificate \(certificate); ssl_certificate_key \(key);", "SSLCertificateFile \(certificate)\nSSLCertificateKeyFile \(key)")
    }
}
