import DetourTestSupport
import Foundation

/// Composes Caddyfiles for the runtime oracle from building blocks (proxied, redirect-only,
/// static and maintenance sites; the proxy at the top, in `handle`, `handle_path`, `route`
/// with `uri`, or brought by a snippet; `forward_auth`; `handle_errors` with its `root`,
/// `rewrite` or `try_files`, `file_server`, matchers and imports, or from a snippet) and
/// plants faults (no `handle_errors`, no `file_server`, a wrong `root`, a matcher that leaves
/// codes out, a `respond` before the files, the page fetched from the upstream, `basicauth`,
/// no `handle_response` or a `copy_response` in it, a block opened on the next line), seeded.
struct CaddyConfigGenerator {
    static let codes = [500, 502, 503, 504]
    /// Every directive the generator can write, in `Oracle/caddy-vocabulary.txt`.
    static let vocabularyFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("caddy-vocabulary.txt")

    var random: SplitMix64

    private mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    /// The Caddyfile for sites on `port`, pages in `pages` (its `errors/` folder), the upstream
    /// at `upstream`.
    mutating func configuration(port: Int, upstream: Int, pages: String, folder: String) -> String {
        var lines = ["{", "\tadmin off", "\tauto_https off", "}", ""]
        let snippet = chance(40)
        let intercepts = chance(80)
        if snippet {
            lines += ["(app) {"] + proxy(upstream: upstream, intercepts: intercepts).map { "\t" + $0 } + ["}", ""]
        }
        for index in 0..<Int.random(in: 1...3, using: &random) {
            let host = "s\(index).test"
            var body = site(host: host, upstream: upstream, pages: pages, snippet: snippet, intercepts: intercepts)
            // The error route from a snippet of its own, now and then.
            if let errors = body.firstIndex(of: "handle_errors {"), chance(25) {
                let end = body.lastIndex(of: "}")!
                let name = "pages-\(index)"
                lines += ["(\(name)) {"] + body[(errors + 1)..<end].map { "\t" + $0.dropFirst() } + ["}", ""]
                body.replaceSubrange((errors + 1)..<end, with: ["\timport \(name)"])
            }
            lines += ["http://\(host):\(port) {"] + body.map { "\t" + $0 } + ["}", ""]
        }
        return lines.joined(separator: "\n")
    }

    /// A response header timeout of a second: on a loaded machine the upstream's malformed
    /// answer can take longer than a shorter one, and the 502 a finding names would meet a 504.
    private mutating func proxy(upstream: Int, intercepts: Bool) -> [String] {
        var lines = ["reverse_proxy 127.0.0.1:\(upstream) {", "\ttransport http {", "\t\tdial_timeout 1s", "\t\tresponse_header_timeout 1s", "\t}"]
        // copy_response sends the application's own answer on: its errors pass through.
        let answer = intercepts && chance(90) ? "\t\terror \"upstream error\" {rp.status_code}" : "\t\tcopy_response"
        if intercepts || chance(10) { lines += ["\t@error status 5xx", "\thandle_response @error {", answer, "\t}"] }
        // A subdirective now and then, one of them a later Caddy's that 2.6 refuses.
        if chance(4) { lines.insert(["\tread_buffer_size 4096", "\tflush_interval -1", "\tlb_try_duration 1s"].randomElement(using: &random)!, at: 1) }
        return lines + ["}"]
    }

    private mutating func site(host: String, upstream: Int, pages: String, snippet: Bool, intercepts: Bool) -> [String] {
        var lines: [String]
        switch Int.random(in: 0..<12, using: &random) {
        case 0: return ["redir https://\(host){uri} 301"]
        // Its block opened on the next line now and then, which Caddy joins to the line and
        // respond refuses (it reads a block only where the line opens it).
        case 1: return chance(10) ? ["respond \"home\" 200", "{", "\tclose", "}"] : ["respond \"home\" 200"]
        // A maintenance switch: every request is an error of the site's own.
        case 2: lines = ["error \"down for maintenance\" 503"]
        default:
            let app = snippet ? ["import app"] : proxy(upstream: upstream, intercepts: intercepts)
            switch Int.random(in: 0..<5, using: &random) {
            case 0: lines = ["handle /app/* {"] + app.map { "\t" + $0 } + ["}", "handle {", "\trespond \"home\" 200", "}"]
            case 1: lines = ["route /app/* {"] + app.map { "\t" + $0 } + ["}", "respond \"home\" 200"]
            case 2: lines = ["handle_path /app/* {"] + app.map { "\t" + $0 } + ["}", "respond \"home\" 200"]
            case 3: lines = ["route /app/* {", "\turi strip_prefix /app"] + app.map { "\t" + $0 } + ["}", "respond \"home\" 200"]
            default: lines = app
            }
        }
        // An auth service every request asks first.
        // An auth service every request asks first, which lets them in. (A slow one would hide
        // what lies behind it from every probe: its 504 is shown by the fixtures.)
        if chance(10) { lines.insert(contentsOf: ["forward_auth 127.0.0.1:\(upstream) {", "\turi /ok?signed-in", "}"], at: 0) }
        // A password on the pages' folder in the site's own routes, which handle_errors never meets.
        if chance(10) {
            lines += ["basicauth /errors/* {", "\tstaff $2a$14$vhB1ZB9Clq6/nxSGpxXXxe7w0vbFSzYgXUT1vqHBtLrE/4fjUtB/u", "}"]
        }
        guard !chance(8) else { return lines }
        let proxies = !lines.contains { $0.hasPrefix("error ") }
        var errors = ["handle_errors {"]
        let matched = chance(15)
        var body: [String] = []
        switch Int.random(in: 0..<25, using: &random) {
        case 0: body.append("root * \(pages)/missing")
        case 1: body += ["basicauth {", "\tstaff $2a$14$vhB1ZB9Clq6/nxSGpxXXxe7w0vbFSzYgXUT1vqHBtLrE/4fjUtB/u", "}", "root * \(pages)"]
        default: body.append("root * \(pages)")
        }
        body.append(chance(80) ? "rewrite * /errors/{err.status_code}.html" : "try_files /errors/{err.status_code}.html")
        switch Int.random(in: 0..<25, using: &random) {
        case 0: break
        case 1: body += ["respond \"Something went wrong\"", "file_server"]
        // The page from the site's own upstream, which fails with it (a site that does not
        // proxy would be using it as a page service, which detour leaves to its operator).
        case 2 where proxies: body.append(snippet ? "import app" : "reverse_proxy 127.0.0.1:\(upstream)")
        default: body.append("file_server")
        }
        if matched {
            errors += ["\t@some expression `{err.status_code} in [502, 503]`", "\thandle @some {"] + body.map { "\t\t" + $0 } + ["\t}"]
        } else if chance(25) {
            errors += routedPages(pages: pages, upstream: upstream, proxies: proxies).map { "\t" + $0 }
        } else {
            errors += body.map { "\t" + $0 }
        }
        return lines + errors + ["}"]
    }

    /// The pages behind blocks the page's own request goes through: a proxy for other paths
    /// before them now and then, `handle` or `handle_path` (which strips `/errors`, so its root
    /// is the pages' own folder, or wrongly their parent), a `route` (which a catch-all `handle`
    /// comes before), or, where the site `proxies` (its upstream is the one that fails), a
    /// `route` whose proxy takes the page first.
    private mutating func routedPages(pages: String, upstream: Int, proxies: Bool) -> [String] {
        var lines = ["rewrite * /errors/{err.status_code}.html"]
        if chance(50) { lines += ["handle /app/* {", "\treverse_proxy 127.0.0.1:\(upstream)", "}"] }
        switch Int.random(in: 0..<10, using: &random) {
        case 0 where proxies: lines += ["route {", "\treverse_proxy /errors/* 127.0.0.1:\(upstream)", "\troot * \(pages)", "\tfile_server", "}"]
        case 1: lines += ["handle_path /errors/* {", "\troot * \(pages)", "\tfile_server", "}"]
        case 2, 3, 4: lines += ["handle_path /errors/* {", "\troot * \(pages)/errors", "\tfile_server", "}"]
        case 5: lines += ["route {", "\troot * \(pages)", "\tfile_server", "}"]
        default: lines += ["handle /errors/* {", "\troot * \(pages)", "\tfile_server", "}"]
        }
        if chance(30) { lines += ["handle {", "\trespond \"Something went wrong\" 500", "}"] }
        return lines
    }
}
