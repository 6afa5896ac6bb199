import DetourDiagnostics
import DetourProxyCore
import DetourTestSupport
import Foundation
import XCTest

@testable import DetourNginx

/// A named location is reached only where a directive names it: from any depth of its server
/// (a nested location's `try_files`), and only by a word that starts with '@'.
final class NginxNamedReferenceTests: XCTestCase {
    func testANamedLocationIsReachedFromANestedLocationAndNotFromAWordThatOnlyHoldsAnAt() throws {
        let folder = try TemporaryFolder(files: [
            "errors/500.html": "500", "errors/503.html": "503",
            "nginx.conf": """
            events {}
            http {
                server {
                    listen 80;
                    root /srv;
                    error_page 500 503 /errors/$status.html;
                    location / {
                        location /shop/ { try_files $uri @deep; }
                        add_header X-Contact "ops@lonely" always;
                    }
                    location @deep { proxy_pass http://127.0.0.1:9; }
                    location @lonely { proxy_pass http://127.0.0.1:9; }
                }
            }

            """,
        ])
        defer { folder.remove() }
        let report = NginxChecker.check(
            .init(
                main: folder.url.appendingPathComponent("nginx.conf"), mainDisplay: "nginx.conf", pages: folder.url.appendingPathComponent("errors"), maps: []))
        let passThrough = report.diagnostics.filter { $0.rule == NginxRules.upstreamPassThrough.id }
        // @deep is named two blocks down; @lonely only inside another word: no request reaches it.
        XCTAssertEqual(passThrough.map(\.location.line), [11], report.diagnostics.map { "\($0.location.line): \($0.message)" }.joined(separator: "\n"))
    }
}
