import DetourTestSupport
import Foundation

/// Composes HAProxy configurations for the runtime oracle from building blocks (a frontend and
/// its backend per site on ports of their own; pages as `errorfile` in `defaults`, the frontend
/// or the backend, through `errorfiles` and `http-errors`, or `http-response return` for the
/// application's own statuses, in the backend or the frontend; a backend's `http-response
/// set-status`, with or without a condition; named defaults with `from`,
/// `use_backend`, `http-after-response`) and plants faults (a code left out, `errorloc302` or
/// `errorloc303` instead of a file, a file whose status line says 200, no `http-response
/// return`, a stock page over the defaults' one, rules in an anonymous defaults, a keyword
/// HAProxy no longer supports, a sample expression it cannot parse, a Lua script that is not
/// there, an external check the global section does not allow, a log facility it does not
/// have, an address form its keyword does not take), and frontends that answer every request
/// themselves (a redirect to https, the stats page, with or without credentials), seeded.
struct HAProxyConfigGenerator {
    static let codes = [500, 502, 503, 504]
    /// Every keyword the generator can write, in `Oracle/haproxy-vocabulary.txt`.
    static let vocabularyFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("haproxy-vocabulary.txt")

    var random: SplitMix64

    private mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    /// The configuration with `ports.count` sites, pages in `pages` (`errors/NNN.http` and
    /// `.html`, `errors/200-NNN.http` with a 200 status line, `stock/NNN.http` not detour's),
    /// the upstream at `upstream`.
    mutating func configuration(ports: [Int], upstream: Int, pages: String) -> String {
        // A log facility HAProxy 2.6 does not have (a later version's): it refuses the file.
        var lines = ["global", chance(2) ? "    log stdout format raw profile" : "    log stdout format raw local0"]
        // A log server's port range: a log line takes one port, and HAProxy refuses the file.
        if chance(2) { lines.append("    log 127.0.0.1:514-515 local0") }
        // A Lua script that is not there, and a service it would have registered: HAProxy refuses both.
        let missingLua = chance(3)
        if missingLua { lines.append("    lua-load detour-missing.lua") }
        lines.append("")
        let inDefaults = chance(40)
        let viaSection = chance(30)
        // Named defaults: the frontends take 'pages', the backends 'pages' or 'plain' (none).
        let named = chance(30)
        if viaSection {
            lines += ["http-errors detour"] + Self.codes.map { "    errorfile \($0) \(pages)/errors/\($0).http" } + [""]
        }
        lines += [named ? "defaults pages" : "defaults"] + Self.timeouts + [retries()]
        let defaultsPages = inDefaults ? pageLines(pages: pages, viaSection: viaSection) : []
        lines += defaultsPages.map { "    " + $0 }
        // Whether the defaults give detour's 503 page, for a stock line to replace (a stock page
        // where detour's is not set anywhere is the operator's own choice, not a fault).
        let defaultsGive503 = defaultsPages.contains { $0 == "errorfiles detour" || $0.hasPrefix("errorfile 503 \(pages)/errors/503") }
        // Rules in an anonymous defaults section: HAProxy refuses the file.
        if !named, chance(3) { lines.append("    http-response return status 503 default-errorfiles if { status 503 }") }
        lines.append("")
        let plainBackends = named && chance(50)
        if plainBackends { lines += ["defaults plain"] + Self.timeouts + [retries(), ""] }
        for (index, port) in ports.enumerated() {
            lines += [named ? "frontend web\(index) from pages" : "frontend web\(index)", "    bind 127.0.0.1:\(port)"]
            // A frontend that answers every request itself: a redirect to https, or the stats page,
            // which may ask for credentials (HAProxy's 401, with the errorfile in effect).
            if chance(10) {
                if chance(50) {
                    lines.append("    http-request redirect scheme https code 301")
                } else {
                    lines.append("    stats uri /")
                    if chance(50) { lines.append("    stats auth admin:secret") }
                }
            }
            lines.append(chance(20) ? "    use_backend app\(index) if { path_beg / }" : "    default_backend app\(index)")
            let pagesHere = !inDefaults || chance(20)
            let inFrontend = chance(50)
            if pagesHere, inFrontend { lines += pageLines(pages: pages, viaSection: viaSection).map { "    " + $0 } }
            // A page left from the stock configuration, over the defaults' one.
            if defaultsGive503, !pagesHere, chance(20) { lines.append("    errorfile 503 \(pages)/stock/503.http") }
            if chance(10) { lines.append("    http-after-response set-header X-Frame-Options DENY") }
            if missingLua, index == 0 { lines.append("    http-request use-service lua.detour-missing if { path /zz-never-asked }") }
            // A rule reading a sample expression, now and then one HAProxy cannot parse.
            if chance(12) { lines.append("    " + sampleRule()) }
            // The application's own statuses: the backend's rules, or the frontend's.
            let replaceInFrontend = chance(25)
            let replaces = chance(80)
            if replaces, replaceInFrontend {
                lines += Self.codes.map { "    http-response return status \($0) default-errorfiles if { status \($0) }" }
            }
            lines += ["", plainBackends ? "backend app\(index) from plain" : named ? "backend app\(index) from pages" : "backend app\(index)"]
            // TLS to the server with no CA file to check its certificate: HAProxy refuses the file.
            lines.append("    server app 127.0.0.1:\(upstream)" + (chance(3) ? (chance(50) ? " ssl" : " check-ssl") : ""))
            // A server's name written twice in one backend: refused, unless the copy has an id.
            if chance(3) { lines.append("    server app 127.0.0.1:\(upstream)" + (chance(50) ? " id 9" : "")) }
            // The address the backend's connections leave from: a port offset there (a
            // server's address takes one, this one not) makes HAProxy refuse the file.
            if chance(3) { lines.append(chance(50) ? "    source 0.0.0.0" : "    source 0.0.0.0:+1") }
            // A tcp backend behind the http frontend: HAProxy refuses the file once it has read it.
            if chance(3) { lines.append("    mode tcp") }
            // A keyword HAProxy no longer supports (1.x's), or an external check the global
            // section does not allow: it refuses the file.
            if chance(8) { lines.append(chance(50) ? "    redispatch" : "    option http-tunnel") }
            if chance(2) { lines += ["    option external-check", "    external-check command /bin/true"] }
            // Every answer given another status, or only one status: the servers' 5xx leave as 401, or as they came.
            if chance(6) { lines.append(chance(50) ? "    http-response set-status 401" : "    http-response set-status 200 if { status 418 }") }
            if pagesHere, !inFrontend { lines += pageLines(pages: pages, viaSection: viaSection).map { "    " + $0 } }
            if replaces, !replaceInFrontend {
                let file = chance(20) ? "lf-file" : "file"
                for code in Self.codes {
                    lines.append(
                        "    http-response return status \(code) content-type \"text/html\" \(file) \(pages)/errors/\(code).html if { status \(code) }")
                }
            }
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    /// Sample expressions no probe's request changes the outcome of, and those HAProxy refuses:
    /// an unknown fetch or converter, an argument of the wrong type or missing, a missing
    /// parenthesis or fetch, a fetch its own check refuses bare; empty: a header set to nothing.
    private static let expressions = [
        "req.hdr(x-detour-never)", "req.hdr(x-detour-never,1),lower", "src,ipmask(24)", "path,lower,word(1,/)", "url_param(id)", "var(txn.id)",
    ]
    private static let faultyExpressions = [
        "req.hdrs(x-detour-never)", "req.hdr(x-detour-never),lowr", "req.hdr(x-detour-never,x)", "req.hdr(x-detour-never", "src,ipmask",
        "(x-detour-never)", "var", "path,word(1)", "",
    ]

    /// A header set from an expression, a variable set to one, or a deny on one that never
    /// matches; or a header set to nothing (an action given too few arguments).
    private mutating func sampleRule() -> String {
        let pool = chance(40) ? Self.faultyExpressions : Self.expressions
        let expression = pool[Int.random(in: 0..<pool.count, using: &random)]
        if expression.isEmpty { return "http-request set-header X-Detour-Probe" }
        switch Int.random(in: 0..<3, using: &random) {
        case 0: return "http-request set-header X-Detour-Probe %[\(expression)]"
        case 1: return "http-request set-var(txn.probe) \(expression)"
        default: return "http-request deny deny_status 403 if { \(expression) -m str zz-never-sent }"
        }
    }

    /// A server timeout of a second: on a loaded machine the upstream's malformed answer can take
    /// longer than a shorter one, and HAProxy's 502 a check finding names would meet its 504.
    private static let timeouts = ["    mode http", "    timeout connect 1s", "    timeout client 5s", "    timeout server 1s"]

    /// Each retry of a refused connection waits a second: most samples retry at once or not at all.
    private mutating func retries() -> String { chance(80) ? "    retries 0" : "    retries 1" }

    /// The lines that give the pages, with a fault now and then.
    private mutating func pageLines(pages: String, viaSection: Bool) -> [String] {
        if viaSection, !chance(10) { return ["errorfiles detour"] }
        var lines: [String] = []
        // HAProxy raises 500 itself only on an internal error, which no probe can provoke:
        // its page is never faulty, so what the oracle judges is what it can see.
        for code in Self.codes where code == 500 || !chance(5) {
            switch code == 500 ? 2 : Int.random(in: 0..<20, using: &random) {
            case 0: lines.append("\(chance(50) ? "errorloc302" : "errorloc303") \(code) http://status.example/\(code).html")
            case 1: lines.append("errorfile \(code) \(pages)/errors/200-\(code).http")
            default: lines.append("errorfile \(code) \(pages)/errors/\(code).http")
            }
        }
        return lines
    }

    /// The raw pages `errorfile` sends: the status line and headers, then detour's page; and
    /// HAProxy's stock ones beside the folder.
    static func writeRawPages(into folder: URL) throws {
        let stock = folder.deletingLastPathComponent().appendingPathComponent("stock")
        try FileManager.default.createDirectory(at: stock, withIntermediateDirectories: true)
        for code in codes {
            let raw =
                "HTTP/1.0 \(code) Error\r\nCache-Control: no-cache\r\nConnection: close\r\nContent-Type: text/html\r\n\r\n<html><body><h1>\(code)</h1>stock page</body></html>\n"
            try raw.write(to: stock.appendingPathComponent("\(code).http"), atomically: true, encoding: .utf8)
        }
        for code in codes {
            let page = try String(contentsOf: folder.appendingPathComponent("\(code).html"), encoding: .utf8)
            for (name, status) in [("\(code).http", "\(code) Error"), ("200-\(code).http", "200 OK")] {
                let raw = "HTTP/1.0 \(status)\r\nCache-Control: no-cache\r\nConnection: close\r\nContent-Type: text/html\r\n\r\n\(page)"
                try raw.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
            }
        }
    }
}
