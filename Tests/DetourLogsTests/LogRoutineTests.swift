import XCTest

@testable import DetourLogs

/// Which lines are a server's routine (starting, stopping, reading its configuration, its
/// environment), by each server's grammar: lines as the real servers wrote them here.
final class LogRoutineTests: XCTestCase {
    func testStartUpStopAndEnvironmentLinesAreRoutine() {
        let routine = [
            // nginx: outside any request, and before its log is open.
            #"2026/11/26 17:14:24 [warn] 22526#22526: conflicting server name "a" on 127.0.0.1:18124, ignored"#,
            #"2026/11/26 17:14:24 [warn] 22526#22526: "ssl_stapling" ignored, issuer certificate not found for certificate "/tmp/pr/cert.pem""#,
            "2026/11/26 17:14:24 [notice] 22526#22526: start worker process 22527",
            "2026/11/26 17:14:26 [info] 22527#22527: epoll_wait() failed (4: Interrupted system call)",
            "nginx: [warn] could not build optimal proxy_headers_hash, you should increase either proxy_headers_hash_max_size: 1",
            // Apache: no client, and before its log is open.
            "[Thu Nov 26 17:13:39.595544 2026] [ssl:warn] [pid 22371:tid 22371] AH01882: Init: this version of mod_ssl was compiled against a newer library (OpenSSL 3.0.22 25 Aug 2026 (OpenSSL 3.0.20 7 Apr 2026), version currently loaded is 0x30000140) - may result in undefined or erroneous behavior",
            "[Thu Nov 26 17:13:39.594426 2026] [so:warn] [pid 22371:tid 22371] AH01574: module ssl_module is already loaded, skipping",
            "[Thu Nov 26 17:13:39.598259 2026] [mpm_event:notice] [pid 22371:tid 22371] AH00489: Apache/2.4.71 (Debian) OpenSSL/3.0.20 configured -- resuming normal operations",
            "[Thu Nov 26 17:13:39.598275 2026] [mpm_event:info] [pid 22371:tid 22371] AH00490: Server built: 2026-11-12T08:58:41",
            "AH00558: apache2: Could not reliably determine the server's fully qualified domain name, using 127.0.0.1. Set the 'ServerName' directive globally to suppress this message",
            // HAProxy
            "[NOTICE]   (22545) : haproxy version is 2.6.12-1+deb12u4",
            "[WARNING]  (22549) : config : missing timeouts for frontend 'web'.",
            // The official nginx image's entrypoint.
            "/docker-entrypoint.sh: Configuration complete; ready for start up",
            "10-listen-on-ipv6-by-default.sh: info: Getting the checksum of /etc/nginx/conf.d/default.conf",
            "[WARNING]  (8) : Server csg-gateway/csggateway-app-2 is UP. 2 active and 0 backup servers online. 0 sessions requeued, 0 total in queue.",
            "[WARNING]  (32480) : Health check for server app/app1 succeeded, reason: Layer4 check passed, check duration: 0ms, status: 3/3 UP.",
            "[WARNING] 124/210930 (59014) : Health check for server Backend-Web/http1_2 succeeded, reason: Layer7 check passed, code: 200, check duration: 1ms, status: 3/3 UP.",
            "Health check for server app/app1 succeeded, reason: Layer4 check passed, check duration: 0ms, status: 3/3 UP.",
            // HAProxy up to 2.2 through syslog: its notice without its level (a line quoted from
            // Tecnativa/docker-socket-proxy#127).
            "Proxy dockerbackend started.",
            "Jan 21 17:12:20 lb haproxy[655]: Proxy web started.",
            // HAProxy before 2.4 wrote the day of the year and the time, and its start-up's
            // warnings about a saved server state without `config :` (its source, src/server.c).
            "[WARNING] 297/101010 (7) : Can't open server state file '/etc/haproxy/state/be_app': No such file or directory",
            "[WARNING]  (7472) : config : config: Can't open global server state file '/tmp/hst/missing-state': No such file or directory",
            "[WARNING] 049/164958 (33386) : parsing [/etc/haproxy/haproxy.cfg:39] : The 'reqadd' directive is deprecated in favor of 'http-request add-header' and will be removed in next version.",
            // gunicorn's master starting and replacing workers.
            "[2026-11-25 06:00:00 +0000] [7510] [INFO] Starting gunicorn 23.0.0",
            "[2026-11-25 06:00:00 +0000] [7512] [INFO] Booting worker with pid: 7512",
            // Caddy
            #"{"level":"warn","ts":1795713300.0811274,"logger":"admin","msg":"admin endpoint disabled"}"#,
            #"{"level":"warn","ts":1795713300.0810044,"msg":"Caddyfile input is not formatted; run the 'caddy fmt' command to fix inconsistencies","adapter":"caddyfile","file":"Caddyfile","line":2}"#,
            #"{"level":"info","ts":1795713300.0816755,"logger":"http.log","msg":"server running","name":"srv0","protocols":["h1","h2","h3"]}"#,
            // Caddy's debug lines beside a request (a failure has its http.log.error line), in JSON
            // and in its console format.
            #"{"level":"debug","ts":1795713300.1,"logger":"http.handlers.reverse_proxy","msg":"selected upstream","dial":"localhost:8011","total_upstreams":1}"#,
            "2023/09/27 05:38:20.111\tDEBUG\thttp.handlers.reverse_proxy\tselected upstream\t{\"dial\": \"localhost:8011\", \"total_upstreams\": 1}",
            "2023/09/27 05:38:20.111\tINFO\ttls\tfinished cleaning storage units",
            // PHP-FPM, PHP's own start-up through it, Varnish
            "[26-Nov-2026 17:15:13] NOTICE: fpm is running, pid 22939",
            "[26-Nov-2026 17:15:18] NOTICE: PHP message: PHP Warning:  Module \"calendar\" is already loaded in Unknown on line 0",
            // PHP-FPM's lines without the time (its children write none).
            "NOTICE: fpm is running, pid 1",
            // uWSGI, whose lines have no level: starting and spawning as its catalogue's verdicts
            // say, and its request log for an answer below 500.
            "*** Starting uWSGI 2.0.21 (64bit) on [Wed Nov 25 06:00:00 2026] ***",
            "your server socket listen backlog is limited to 100 connections",
            "Respawned uWSGI worker 1 (new pid: 1235)",
            "spawned uWSGI worker 1 (pid: 1234, cores: 1)",
            "[pid: 1234|app: 0|req: 1/1] 127.0.0.1 () {32 vars in 338 bytes} [Wed Nov 25 06:00:00 2026] GET /favicon.ico => generated 21 bytes in 2 msecs (HTTP/1.1 404) 2 headers in 84 bytes (1 switches on core 0)",
            "Debug: Child (22611) Started",
            "Info: Child (22611) said Child starts",
            "*   << BeReq    >> 3         ",
            "**  << BeReq    >> 32770",
            // Access logs' lines of requests answered as asked: Combined Log Format (nginx,
            // Apache, gunicorn, varnishncsa), PHP-FPM's own, HAProxy's request log.
            #"203.0.113.7 - - [25/Nov/2026:06:00:00 +0000] "GET /favicon.ico HTTP/1.1" 404 153 "-" "Mozilla/5.0""#,
            #"203.0.113.7 - - [25/Nov/2026:06:00:00 +0000] "GET /a\"b HTTP/1.1" 301 0 "-" "-""#,
            #"127.0.0.1 -  19/May/2024:14:09:26 +0000 "GET /index.php" 404"#,
            #"172.19.0.1:34866 [31/Mar/2023:02:25:33.784] api api/<NOSRV> 0/-1/-1/-1/0 204 255 - - LR-- 2/1/0/0/0 0/0 "OPTIONS /putdata HTTP/1.1""#,
            // Through syslog and journald.
            "Nov 25 06:00:00 web1 nginx[812]: 2026/11/25 06:00:00 [notice] 812#812: signal process started",
            // Behind Docker Compose's service column, a container runtime's time, both inside syslog.
            "haproxy-1  | [NOTICE]   (1) : New worker (8) forked",
            "2026-11-25T06:00:00.717765840Z 2026/11/25 06:00:00 [notice] 1#1: start worker processes",
            "Nov 25 06:00:00 web1 sh[229]: web-1  | 2026/11/25 06:00:00 [notice] 1#1: start worker processes",
            #"2026-11-25T06:00:00+0000 web1 caddy[640]: {"level":"info","ts":1795588267.1,"logger":"tls","msg":"finished cleaning storage units"}"#,
        ]
        for line in routine { XCTAssertTrue(LogRoutine.isRoutine(line), line) }
    }

    func testLinesOfRequestsAndFailuresAreNot() {
        let failures = [
            // A request's warning names its connection (nginx) or client (Apache).
            "2026/11/26 17:14:24 [warn] 22526#22526: *7 an upstream response is buffered to a temporary file /var/cache/nginx/1 while reading upstream",
            "2026/11/26 17:14:24 [info] 22526#22526: *7 client closed connection while waiting for request, client: 127.0.0.1",
            "2026/11/26 17:14:24 [error] 22526#22526: open() \"/run/nginx.pid\" failed (2: No such file or directory)",
            "2026/11/26 17:14:24 [alert] 22526#22526: worker process 22527 exited on signal 11",
            "nginx: [emerg] bind() to 127.0.0.1:80 failed (98: Address already in use)",
            "[Thu Nov 26 17:13:39.595544 2026] [proxy_http:warn] [pid 22371:tid 22380] [client 127.0.0.1:51234] AH01106: bad HTTP/1.1 header returned by /x (x)",
            "[Thu Nov 26 17:13:39.595544 2026] [proxy:error] [pid 22371:tid 22380] (111)Connection refused: AH00957: http: attempt to connect to 127.0.0.1:8080 (127.0.0.1:8080) failed",
            "[Thu Nov 26 17:13:39.598900 2026] [unixd:alert] [pid 22372:tid 22372] AH02155: getpwuid: couldn't determine user name from uid 4294967295",
            "(98)Address already in use: AH00072: make_sock: could not bind to address 127.0.0.1:80",
            #"[WARNING]  (22575) : Server app/app1 is DOWN, reason: Layer4 connection problem, info: "Connection refused", check duration: 0ms."#,
            #"[WARNING] 297/101010 (7) : Server app/app1 is DOWN, reason: Layer4 connection problem, info: "Connection refused", check duration: 0ms."#,
            "[ALERT]    (22554) : config : Fatal errors found in configuration.",
            #"{"level":"warn","ts":1795713301.5,"logger":"http.handlers.reverse_proxy","msg":"reading from backend","error":"unexpected EOF"}"#,
            #"{"level":"info","ts":1795713301.5,"logger":"http.log.access.log0","msg":"handled request","status":502}"#,
            // An access log's failures, a limit's and a denial's answers, and sessions cut short.
            #"203.0.113.7 - - [25/Nov/2026:06:00:00 +0000] "GET / HTTP/1.1" 502 157 "-" "Mozilla/5.0""#,
            #"203.0.113.7 - - [25/Nov/2026:06:00:00 +0000] "GET / HTTP/1.1" 429 157 "-" "Mozilla/5.0""#,
            #"203.0.113.7 - - [25/Nov/2026:06:00:00 +0000] "GET /admin HTTP/1.1" 403 157 "-" "Mozilla/5.0""#,
            #"172.19.0.1:34866 [31/Mar/2023:02:25:33.784] web app/app1 0/0/1/2/3 200 255 - - SD-- 2/1/0/0/0 0/0 "GET / HTTP/1.1""#,
            // HAProxy's TCP log has no status: its bytes (213) are not one.
            "Jan 21 17:12:20 lb haproxy[655]: 1.1.1.1:48847 [21/Jan/2016:17:12:08.054] web~ app/app1 9998/-1/12140 213 SC 0/0/0/0/3 0/0",
            #"{"level":"error","ts":1795713301.5,"logger":"http.log.error","msg":"dial tcp 127.0.0.1:18128: connect: connection refused","status":502}"#,
            "[WARNING]  (32480) : Health check for server app/app1 failed, reason: Health analyze, info: \"Detected 1 consecutive errors, last one was: L4 unsuccessful connection\", status: 0/2 DOWN.",
            "Health check for server app/app1 failed, reason: Layer4 connection problem, info: \"Connection refused\", check duration: 0ms, status: 0/2 DOWN.",
            // handle_errors answered it: Caddy logs the failure at debug.
            #"{"level":"debug","ts":1795713301.5,"logger":"http.log.error","msg":"dial tcp 127.0.0.1:18128: connect: connection refused","status":502}"#,
            "2023/09/27 05:38:20.111\tERROR\thttp.log.error\tdial tcp 127.0.0.1:18128: connect: connection refused\t{\"status\": 502}",
            "2023/09/27 05:38:20.111\tWARN\thttp.handlers.reverse_proxy\treading from backend\t{\"error\": \"unexpected EOF\"}",
            "[26-Nov-2026 17:15:18] WARNING: [pool www] child 4321 exited on signal 9 (SIGKILL) after 0.501234 seconds from start",
            "[2026-11-25 06:00:00 +0000] [7510] [CRITICAL] WORKER TIMEOUT (pid:7512)",
            // gunicorn's INFO holds why its master halts.
            "[2026-11-25 06:00:00 +0000] [7510] [INFO] Reason: Worker failed to boot.",
            "[2026-11-25 06:00:00 +0000] [7510] [INFO] Unhandled exception in main loop",
            // A failure behind Docker Compose's column is one still.
            "app-1  | [2026-11-25 06:00:00 +0000] [7510] [CRITICAL] WORKER TIMEOUT (pid:7512)",
            "Error: Child (22611) died signal=6",
            "[pid: 1234|app: 0|req: 1/1] 127.0.0.1 () {32 vars in 338 bytes} [Wed Nov 25 06:00:00 2026] GET / => generated 21 bytes in 2 msecs (HTTP/1.1 500) 2 headers in 84 bytes (1 switches on core 0)",
            "DAMN ! worker 1 (pid: 1234) died, killed by signal 9 :( trying respawn ...",
            "Wed Nov 25 06:00:00 2026 - *** HARAKIRI ON WORKER 1 (pid: 1234, try: 1) ***",
            "invalid request block size: 5117 (max 4096)...skip",
            "WARNING: [pool www] server reached pm.max_children setting (5), consider raising it",
            "Child (22611) Panic at: Thu, 26 Nov 2026 17:15:00 GMT",
        ]
        for line in failures { XCTAssertFalse(LogRoutine.isRoutine(line), line) }
    }
}
