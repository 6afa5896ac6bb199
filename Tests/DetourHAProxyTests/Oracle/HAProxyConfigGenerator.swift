import DetourTestSupport
import Foundation

/// Composes HAProxy configurations for the runtime oracle from building blocks (a frontend and
/// its backend per site on ports of their own; pages as `errorfile` in `defaults`, the frontend
/// or the backend, through `errorfiles` and `http-errors`, or `http-response return` for the
/// application's own statuses) and plants faults (a code left out, `errorloc302` instead of a
/// file, a file whose status line says 200, no `http-response return`), seeded.
struct HAProxyConfigGenerator {
    static let codes = [500, 502, 503, 504]
    /// Every keyword the generator can write, in `Oracle/haproxy-vocabulary.txt`.
    static let vocabularyFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("haproxy-vocabulary.txt")

    var random: SplitMix64

    private mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    /// The configuration with `ports.count` sites, pages in `pages` (`errors/NNN.http` and
    /// `.html`, `errors/200-NNN.http` with a 200 status line), the upstream at `upstream`.
    mutating func configuration(ports: [Int], upstream: Int, pages: String) -> (text: String, sites: [OracleSite]) {
        var lines = ["global", "    log stdout format raw local0", ""]
        let inDefaults = chance(40)
        let viaSection = chance(30)
        if viaSection {
            lines += ["http-errors detour"] + Self.codes.map { "    errorfile \($0) \(pages)/errors/\($0).http" } + [""]
        }
        lines += ["defaults", "    mode http", "    timeout connect 1s", "    timeout client 5s", "    timeout server 300ms"]
        // Each retry of a refused connection waits a second: most samples retry at once or not at all.
        lines.append(chance(80) ? "    retries 0" : "    retries 1")
        if inDefaults { lines += pageLines(pages: pages, viaSection: viaSection).map { "    " + $0 } }
        lines.append("")
        var sites: [OracleSite] = []
        for (index, port) in ports.enumerated() {
            let start = lines.count + 1
            lines += ["frontend web\(index)", "    bind 127.0.0.1:\(port)", "    default_backend app\(index)"]
            let pagesHere = !inDefaults || chance(20)
            let inFrontend = chance(50)
            if pagesHere, inFrontend { lines += pageLines(pages: pages, viaSection: viaSection).map { "    " + $0 } }
            lines += ["", "backend app\(index)", "    server app 127.0.0.1:\(upstream)"]
            if pagesHere, !inFrontend { lines += pageLines(pages: pages, viaSection: viaSection).map { "    " + $0 } }
            if chance(80) {
                for code in Self.codes {
                    lines.append("    http-response return status \(code) content-type \"text/html\" file \(pages)/errors/\(code).html if { status \(code) }")
                }
            }
            lines.append("")
            sites.append(
                OracleSite(
                    host: "s\(index).test", lines: start...(lines.count - 1), paths: OracleProbe.failingPaths(under: "/", codes: Self.codes), port: port))
        }
        return (lines.joined(separator: "\n"), sites)
    }

    /// The lines that give the pages, with a fault now and then.
    private mutating func pageLines(pages: String, viaSection: Bool) -> [String] {
        if viaSection, !chance(10) { return ["errorfiles detour"] }
        var lines: [String] = []
        // HAProxy raises 500 itself only on an internal error, which no probe can provoke:
        // its page is never faulty, so what the oracle judges is what it can see.
        for code in Self.codes where code == 500 || !chance(5) {
            switch code == 500 ? 2 : Int.random(in: 0..<30, using: &random) {
            case 0: lines.append("errorloc302 \(code) http://status.example/\(code).html")
            case 1: lines.append("errorfile \(code) \(pages)/errors/200-\(code).http")
            default: lines.append("errorfile \(code) \(pages)/errors/\(code).http")
            }
        }
        return lines
    }

    /// The raw pages `errorfile` sends: the status line and headers, then detour's page.
    static func writeRawPages(into folder: URL) throws {
        for code in codes {
            let page = try String(contentsOf: folder.appendingPathComponent("\(code).html"), encoding: .utf8)
            for (name, status) in [("\(code).http", "\(code) Error"), ("200-\(code).http", "200 OK")] {
                let raw = "HTTP/1.0 \(status)\r\nCache-Control: no-cache\r\nConnection: close\r\nContent-Type: text/html\r\n\r\n\(page)"
                try raw.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
            }
        }
    }
}
