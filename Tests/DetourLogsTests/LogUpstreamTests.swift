import XCTest

@testable import DetourLogs

/// The upstream each server's line names, as an operator would write it down: the address,
/// never the path of the request that failed.
final class LogUpstreamTests: XCTestCase {
    private func upstream(_ line: String) -> String? {
        Array(line.utf8).withUnsafeBufferPointer { LogUpstream.of($0) }
    }

    func testNginxNamesTheUpstreamWithoutTheRequestPath() {
        XCTAssertEqual(
            upstream(
                #"2026/11/20 10:00:03 [error] 12#12: *7 upstream prematurely closed connection while reading upstream, client: 10.0.0.1, server: s, request: "GET /shop/cart?id=3 HTTP/1.1", upstream: "http://10.0.0.9:8080/shop/cart?id=3", host: "s""#
            ), "http://10.0.0.9:8080")
        XCTAssertEqual(
            upstream(
                #"2026/11/20 10:00:01 [error] 12#12: *5 connect() to unix:/run/php/php8.2-fpm.sock failed (2: No such file or directory) while connecting to upstream, client: 10.0.0.1, server: s, request: "GET /index.php HTTP/1.1", upstream: "fastcgi://unix:/run/php/php8.2-fpm.sock:", host: "s""#
            ), "fastcgi://unix:/run/php/php8.2-fpm.sock")
        XCTAssertEqual(
            upstream(#"2026/11/20 10:00:01 [error] 12#12: *5 x, upstream: "http://unix:/run/app.sock:/api/v1", host: "s""#), "http://unix:/run/app.sock")
        XCTAssertEqual(upstream(#"2026/11/20 10:00:01 [error] 12#12: *5 x, upstream: "grpc://[::1]:50051", host: "s""#), "grpc://[::1]:50051")
    }

    func testApacheCaddyAndGoNameTheAddressTheyDialled() {
        XCTAssertEqual(
            upstream(
                "[Fri Nov 20 10:00:16.123456 2026] [proxy:error] [pid 20:tid 30] (111)Connection refused: AH00957: http: attempt to connect to 10.0.0.9:8080 (10.0.0.9:8080) failed"
            ), "10.0.0.9:8080")
        XCTAssertEqual(
            upstream(
                "[Fri Nov 20 10:00:13.123456 2026] [proxy:error] [pid 20:tid 30] AH00959: ap_proxy_connect_backend disabling worker for (10.0.0.9:8080) for 60s"
            ),
            "10.0.0.9:8080")
        XCTAssertEqual(
            upstream(#"{"level":"error","logger":"http.log.error","msg":"dial unix /run/app.sock: connect: no such file or directory","status":502}"#),
            "/run/app.sock")
        XCTAssertEqual(
            upstream(
                #"{"level":"error","logger":"http.log.error","msg":"read tcp 127.0.0.1:40000->127.0.0.1:8080: read: connection reset by peer","status":502}"#),
            "127.0.0.1:8080")
        XCTAssertEqual(
            upstream(#"{"level":"debug","logger":"http.handlers.reverse_proxy","msg":"upstream roundtrip","upstream":"app:3000","duration":0.01}"#), "app:3000")
    }

    func testHAProxyNamesBackendAndServerInChecksAndInItsRequestLog() {
        XCTAssertEqual(
            upstream("Nov 20 10:00:07 lb haproxy[999]: Server app/app1 is DOWN, reason: Layer4 connection problem, info: \"Connection refused\""), "app/app1")
        XCTAssertEqual(
            upstream(
                #"Nov 20 10:00:04 lb haproxy[999]: 10.0.0.1:51234 [20/Nov/2026:10:00:04.123] web app/app1 0/0/1/2/1003 200 51234 - - SD-- 1/1/0/0/0 0/0 "GET /big HTTP/1.1""#
            ),
            "app/app1")
        XCTAssertNil(
            upstream(#"10.0.0.1:51234 [20/Nov/2026:10:00:04.123] web app/<NOSRV> 0/-1/-1/-1/0 503 217 - - SC-- 1/1/0/0/0 0/0 "GET / HTTP/1.1""#),
            "no server was chosen")
    }

    func testHAProxysRawLinesAreNotReadAsApaches() {
        XCTAssertEqual(upstream("[WARNING]  (1234) : Server app/app1 is DOWN, reason: Layer4 timeout, check duration: 301ms."), "app/app1")
    }

    func testAWordAfterAMarkerIsNoUpstream() {
        XCTAssertNil(upstream("Server shutting down gracefully"))
        XCTAssertNil(upstream("2026/11/20 10:00:26 [info] 12#12: *9 client sent too long URI while reading client request line"))
    }
}
