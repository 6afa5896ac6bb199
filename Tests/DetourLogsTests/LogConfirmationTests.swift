import XCTest

@testable import DetourLogs

final class LogConfirmationTests: XCTestCase {
    func testPlaceholdersAreFilledFromTheUpstreamsAsEachServerNamesThem() {
        let command = "curl http://{upstream}/ && ss -lnpt 'sport = :{port}' && getent hosts {host}"
        XCTAssertEqual(
            LogConfirmation.filled(command, upstreams: ["http://10.0.0.5:8080"]),
            "curl http://10.0.0.5:8080/ && ss -lnpt 'sport = :8080' && getent hosts 10.0.0.5")
        XCTAssertEqual(LogConfirmation.filled("ls -l {upstream}", upstreams: ["fastcgi://unix:/run/php/php8.2-fpm.sock"]), "ls -l /run/php/php8.2-fpm.sock")
        XCTAssertEqual(LogConfirmation.filled("ls -l {upstream}", upstreams: ["/run/app.sock"]), "ls -l /run/app.sock", "Caddy's dial unix")
        XCTAssertEqual(LogConfirmation.filled("getent hosts {host}:{port}", upstreams: ["https://app.internal"]), "getent hosts app.internal:443")
        XCTAssertEqual(LogConfirmation.filled("{host} {port}", upstreams: ["[::1]:9000"]), "::1 9000")
        XCTAssertEqual(
            LogConfirmation.filled("curl http://{upstream}/", upstreams: ["app/app1", "127.0.0.1:8080"]), "curl http://127.0.0.1:8080/",
            "HAProxy's backend/server is no address; the next upstream is")
        XCTAssertEqual(
            LogConfirmation.filled("curl http://{upstream}:{port}/ {host}", upstreams: ["app/app1"]), "curl http://<upstream>:<port>/ <host>",
            "nothing to fill: the placeholders as a page shows them")
    }

    func testCurlAndShellBracesAreNoPlaceholders() {
        XCTAssertEqual(LogConfirmation.unknownPlaceholders(in: "curl -w '%{http_code}' http://{upstream}/ ${HOME} {prot} {}"), ["prot"])
    }

    func testTheCommandIsTheOneForTheServerThatWroteMostLines() throws {
        let confirmation = LogConfirmation([
            .init(server: "nginx", text: "nginx -t"), .init(server: "haproxy", text: "haproxy -c -f /etc/haproxy/haproxy.cfg"),
            .init(server: "apache", text: "apache2ctl configtest"),
        ])
        let cause = LogCause(slug: "refused", title: "Refused", url: "", statuses: [], patterns: ["[emerg]", "config : parsing ["], confirmation: confirmation)
        var diagnosis = Diagnosis(causes: [cause])
        read("2026/11/29 10:00:03 [emerg] 1#1: unknown directive \"proxy_pas\" in /etc/nginx/conf.d/default.conf:5", into: &diagnosis)
        XCTAssertEqual(diagnosis.results.first?.confirmation, "nginx -t")
        for _ in 0..<2 {
            read("[ALERT]    (1234) : config : parsing [/etc/haproxy/haproxy.cfg:12] : unknown keyword 'bakend' out of section.", into: &diagnosis)
        }
        XCTAssertEqual(diagnosis.results.first?.confirmation, "haproxy -c -f /etc/haproxy/haproxy.cfg", "HAProxy's lines are the most")
        XCTAssertEqual(
            LogConfirmation([.init(server: "apache", text: "apache2ctl -M")]).command(for: .nginx), "apache2ctl -M", "the only command, whoever wrote the lines"
        )
        XCTAssertNil(LogConfirmation().command(for: .nginx))
    }

    private func read(_ line: String, into diagnosis: inout Diagnosis) {
        Array(line.utf8).withUnsafeBufferPointer { diagnosis.read($0) }
    }
}
