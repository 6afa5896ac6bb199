import DetourLogs
import DetourTestSupport
import Foundation
import XCTest

/// Each real server started with the warnings servers give at start (a host name it cannot
/// determine, a module loaded twice, a certificate without OCSP, missing timeouts, an unformatted
/// Caddyfile, a PHP extension that is not there) and stopped: `detour diagnose` blames none of its
/// lines on a failure, and counts them as routine, not as lines an article should explain. The
/// same for their access logs' lines of requests answered as asked.
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
        try writeApacheConfig(
            port: port, modules: ["mpm_event", "authz_core", "ssl", "ssl"],
            """
            <VirtualHost 127.0.0.1:\(port)>
                SSLEngine on
                \(tls.apache)
            </VirtualHost>

            """)
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
        // The master makes the socket before it says it runs: its start-up lines are read once
        // it has said it is ready.
        XCTAssertTrue(Poll.until { fpm.log.contains("ready to handle connections") }, fpm.log)
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

    // MARK: Access logs

    /// Every server's access log holds a line per request: those answered as asked (a page, a
    /// missing favicon) are routine, the failed one is not.
    func testNginxAccessLogOfAPageAMissingFaviconAndAFailure() throws {
        let port = LoopbackPort.free()
        let nginx = try NginxServer(
            config: NginxServer.httpBlock(
                "server { listen 127.0.0.1:\(port); location / { root {{PREFIX}}; } location /down { proxy_pass http://127.0.0.1:9; } }"))
        defer { nginx.stop() }
        XCTAssertTrue(LoopbackPort.waitUntilOpen(port), nginx.errorLog)
        let statuses = try ["/nginx.conf", "/favicon.ico", "/down"].map { try Visitor.status("http://127.0.0.1:\(port)\($0)") }
        XCTAssertEqual(statuses, [200, 404, 502])
        usleep(200_000)
        try assertAllRoutine(nginx.accessLog, except: "/down")
    }

    func testApacheAccessLogInTheCombinedFormat() throws {
        let port = LoopbackPort.free()
        try writeApacheConfig(
            port: port, modules: ["mpm_event", "authz_core", "proxy", "proxy_http"],
            """
            CustomLog \(folder.path)/access.log "%h %l %u %t \\"%r\\" %>s %O \\"%{Referer}i\\" \\"%{User-Agent}i\\""
            ServerName localhost
            DocumentRoot \(folder.path)
            ProxyPass /down http://127.0.0.1:9
            """)
        _ = try startAndStop(
            "apache2", ["-f", folder.path + "/apache.conf", "-DFOREGROUND"], port: port, asking: ["/apache.conf": 200, "/favicon.ico": 404, "/down": 503])
        try assertAllRoutine(try folder.read("access.log"), except: "/down")
    }

    func testHAProxyRequestLogOfAnswersAndOfARefusedServer() throws {
        let port = LoopbackPort.free()
        let applicationPort = LoopbackPort.free()
        let application = try NginxServer(
            config: NginxServer.httpBlock(
                "server { listen 127.0.0.1:\(applicationPort); location / { return 200 ok; } location /favicon.ico { return 404; } }"))
        defer { application.stop() }
        XCTAssertTrue(LoopbackPort.waitUntilOpen(applicationPort), application.errorLog)
        try folder.write([
            "haproxy.cfg": Reproduce.haproxyConfig(
                port: port, serverTimeout: "5s", frontend: "use_backend down if { path_beg /down }\n    default_backend app",
                backends: "backend app\n    server app1 127.0.0.1:\(applicationPort)\nbackend down\n    server down1 127.0.0.1:9")
        ])
        let log = try startAndStop("haproxy", ["-f", folder.path + "/haproxy.cfg", "-db"], port: port, asking: ["/": 200, "/favicon.ico": 404, "/down": 503])
        assertWrote([" 200 ", " 404 ", " 503 "], log)
        // The refused server's line (`SC--`) leads to its article; every other line is routine.
        let report = try diagnosis(log)
        XCTAssertEqual(report.causes.map(\.slug), ["upstream-connection-refused"], log)
        XCTAssertEqual(report.causes.first?.lines, log.split(separator: "\n").filter { $0.contains("/down") }.map(String.init), log)
        // So is every other line but the port probe's connection that sent nothing, which
        // HAProxy answered 400 (`<BADREQ>`, `CR--`): not a request answered as asked.
        let probes = log.split(separator: "\n").filter { $0.contains("<BADREQ>") }.count
        XCTAssertEqual(report.routine.count, report.lines - 1 - probes, log)
        XCTAssertEqual(report.unexplained.count, probes, log)
    }

    /// Caddy logs a failed request at the error level, and the others at info.
    func testCaddyAccessLog() throws {
        let port = LoopbackPort.free()
        try folder.write([
            "Caddyfile":
                "{\n\tadmin off\n\tauto_https off\n}\nhttp://127.0.0.1:\(port) {\n\tlog\n\trespond /favicon.ico 404\n\trespond /boom 500\n\trespond ok\n}\n"
        ])
        let log = try startAndStop(
            "caddy", ["run", "--config", folder.path + "/Caddyfile", "--adapter", "caddyfile"], port: port, environment: Reproduce.caddyEnvironment(folder),
            asking: ["/": 200, "/favicon.ico": 404, "/boom": 500])
        assertWrote(["http.log.access"], log)
        try assertAllRoutine(log, except: "/boom")
    }

    // MARK: Helpers

    /// Starts `tool`, waits for it to listen on `port`, asks it for each of `asking`'s paths
    /// (checking the status each gets), stops it by its PID and gives what it wrote.
    private func startAndStop(
        _ tool: String, _ arguments: [String], port: Int, environment: [String: String] = [:], asking: KeyValuePairs<String, Int> = [:],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> String {
        let server = try ServerProcess(tool, arguments, environment: environment, log: folder.url.appendingPathComponent("\(tool).out"))
        XCTAssertTrue(LoopbackPort.waitUntilOpen(port, while: { server.isRunning }), server.log, file: file, line: line)
        for (path, status) in asking {
            XCTAssertEqual(try Visitor.status("http://127.0.0.1:\(port)\(path)"), status, "\(tool): \(path)", file: file, line: line)
        }
        usleep(300_000)
        server.stop()
        return server.log
    }

    /// Writes apache.conf: its files in the test's folder, listening on `port`, with `modules`
    /// and then `directives`.
    private func writeApacheConfig(port: Int, modules: [String], _ directives: String) throws {
        let modules = modules.map { "LoadModule \($0)_module /usr/lib/apache2/modules/mod_\($0).so" }
        try folder.write([
            "apache.conf": """
            ServerRoot \(folder.path)
            PidFile \(folder.path)/apache.pid
            ErrorLog \(folder.path)/error.log
            \(getuid() == 0 ? "User nobody\nGroup nogroup" : "")
            Listen 127.0.0.1:\(port)
            \(modules.joined(separator: "\n"))
            \(directives)

            """
        ])
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
        try SelfSignedCertificate.write(into: folder.path)
        let (certificate, key) = (folder.path + "/cert.pem", folder.path + "/key.pem")
        return ("ssl_certificate \(certificate); ssl_certificate_key \(key);", "SSLCertificateFile \(certificate)\nSSLCertificateKeyFile \(key)")
    }
}
