import DetourTestSupport
import Foundation

/// Writes VCLs for the runtime oracle: the parts that decide what a visitor of a failing
/// backend gets, each drawn from the shapes people write (and the faults they make): what
/// `vcl_backend_response` does with the backend's 5xx, how `vcl_backend_error` and `vcl_synth`
/// build the answer (pages read by `std.fileread`, with `synthetic` or `set beresp.body`, a
/// missing file, a status turned into 200, the built-in page, a choice by the request), a path
/// `vcl_recv` answers with `synth` itself or pipes, and a second backend routed by path. Seeded, so a disagreement is the same
/// VCL on every run.
struct VarnishConfigGenerator {
    static let codes = [500, 502, 503, 504]
    /// Every statement the generator can write, in `Oracle/varnish-vocabulary.txt`.
    static let vocabularyFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("varnish-vocabulary.txt")

    var random: SplitMix64

    private mutating func pick(_ items: [String]) -> String { items[Int(random.next() % UInt64(items.count))] }

    /// A VCL whose backends are at `upstream` and whose pages are `pages/errors/NNN.html`.
    mutating func configuration(upstream: Int, pages: String) -> String {
        let folder = pages + "/errors/"
        let read = { (status: String) in "std.fileread(\"\(folder)\" + \(status) + \".html\")" }
        let response = pick([
            "",
            "    if (beresp.status >= 500) {\n        return (error(beresp.status));\n    }\n",
            "    if (beresp.status == 503) {\n        return (error(503));\n    }\n",
            "    if (beresp.status >= 500) {\n        return (abandon);\n    }\n",
            "    set beresp.ttl = 1h;\n",
            "    if (beresp.status >= 500) {\n        set beresp.ttl = 1h;\n        set beresp.uncacheable = true;\n        return (deliver);\n    }\n",
            "    set beresp.ttl = 1h;\n    if (beresp.status >= 500) {\n        return (error(beresp.status));\n    }\n",
            "    if (beresp.status >= 500 && bereq.retries < 1) {\n        return (retry);\n    }\n",
            "    unset beresp.http.Set-Cookie;\n    set beresp.grace = 1h;\n",
        ])
        let error = pick([
            "",
            "    set beresp.body = \(read("beresp.status"));\n    set beresp.uncacheable = true;\n    return (deliver);\n",
            "    set beresp.http.Content-Type = \"text/html; charset=utf-8\";\n    synthetic(\(read("beresp.status")));\n    return (deliver);\n",
            "    set beresp.body = std.fileread(\"\(pages)/missing/\" + beresp.status + \".html\");\n    return (deliver);\n",
            "    set beresp.body = \(read("beresp.status"));\n    set beresp.status = 200;\n    return (deliver);\n",
            "    set beresp.http.Retry-After = \"30\";\n",
            "    if (beresp.status == 503) {\n        set beresp.body = \(read("beresp.status"));\n        return (deliver);\n    }\n",
            "    set beresp.http.Content-Type = \"text/html\";\n    return (deliver);\n",
            "    return (abandon);\n",
            "    if (bereq.retries < 2) {\n        return (retry);\n    }\n    synthetic(\(read("beresp.status")));\n    return (deliver);\n",
            // synthetic() of a missing file's read writes "(null)".
            "    synthetic(std.fileread(\"\(pages)/missing/\" + beresp.status + \".html\"));\n    return (deliver);\n",
        ])
        let synth = pick([
            "",
            "    set resp.body = \(read("resp.status"));\n    return (deliver);\n",
            "    set resp.http.Content-Type = \"text/html; charset=utf-8\";\n    synthetic(\(read("resp.status")));\n    return (deliver);\n",
            "    return (deliver);\n",
            "    if (resp.status == 503) {\n        set resp.body = std.fileread(\"\(folder)503.html\");\n        set resp.status = 200;\n        return (deliver);\n    }\n",
            "    if (resp.status >= 500) {\n        synthetic(\(read("resp.status")));\n        return (deliver);\n    }\n",
            // A choice by the request that changes no body.
            "    if (req.http.Origin) {\n        set resp.http.Access-Control-Allow-Origin = req.http.Origin;\n    }\n    return (deliver);\n",
        ])
        let closed = pick([
            "",
            "    if (req.url ~ \"^/maintenance\") {\n        return (synth(503, \"Closed\"));\n    }\n",
            "    if (req.url ~ \"^/(admin|wp-admin)/\" && client.ip !~ staff) {\n        return (synth(503, \"Closed\"));\n    }\n",
            "    if (req.url == \"/closed\") {\n        return (synth(500, \"Closed\"));\n    }\n",
            // Pipes: one page requests reach, and a websocket's, which they never do.
            "    if (req.url ~ \"^/exports/\") {\n        return (pipe);\n    }\n",
            "    if (req.http.Upgrade ~ \"(?i)websocket\") {\n        return (pipe);\n    }\n",
            // A form's body kept, so a retry can send it again.
            "    std.cache_req_body(1MB);\n",
        ])
        let timeout = pick(["", "    .first_byte_timeout = 60s;\n", "    .connect_timeout = 5s;\n    .between_bytes_timeout = 10s;\n"])
        var text = """
            vcl 4.1;

            import std;

            backend app {
                .host = "127.0.0.1";
                .port = "\(upstream)";
            \(timeout)}

            backend api {
                .host = "127.0.0.1";
                .port = "\(upstream)";
            }

            acl staff {
                "10.0.0.0"/8;
            }

            sub vcl_recv {
            \(closed)    if (req.url ~ "^/api/") {
                    set req.backend_hint = api;
                    return (pass);
                }
                set req.backend_hint = app;
            }

            """
        for (name, body) in [("vcl_backend_response", response), ("vcl_backend_error", error), ("vcl_synth", synth)] where !body.isEmpty {
            text += "\nsub \(name) {\n\(body)}\n"
        }
        return text
    }
}
