import DetourTestSupport

/// Writes VCLs for the runtime oracle: the parts that decide what a visitor of a failing
/// backend gets, each drawn from the shapes people write (and the faults they make), around
/// two backends: `/dead/…` to one nothing listens on, anything else to an application that
/// answers 500. Seeded, so a disagreement is the same VCL on every run.
struct VarnishOracleGenerator {
    private var random: SplitMix64
    /// The folder the pages are read from, as the VCL names it.
    let pages: String

    init(seed: UInt64, pages: String) {
        random = SplitMix64(state: seed)
        self.pages = pages
    }

    private mutating func pick(_ items: [String]) -> String { items[Int(random.next() % UInt64(items.count))] }

    mutating func next(app: Int, dead: Int) -> String {
        let page = "std.fileread(\"\(pages)/\" + beresp.status + \".html\")"
        let response = pick([
            "",
            "    if (beresp.status >= 500) {\n        return (error(beresp.status));\n    }\n",
            "    if (beresp.status == 503) {\n        return (error(503));\n    }\n",
            "    if (beresp.status >= 500) {\n        return (abandon);\n    }\n",
            "    set beresp.ttl = 1h;\n",
            "    if (beresp.status >= 500) {\n        set beresp.ttl = 1h;\n        set beresp.uncacheable = true;\n        return (deliver);\n    }\n",
            "    set beresp.ttl = 1h;\n    if (beresp.status >= 500) {\n        return (error(beresp.status));\n    }\n",
        ])
        let error = pick([
            "",
            "    set beresp.body = \(page);\n    set beresp.uncacheable = true;\n    return (deliver);\n",
            "    set beresp.body = std.fileread(\"\(pages)/missing/\" + beresp.status + \".html\");\n    return (deliver);\n",
            "    set beresp.body = \(page);\n    set beresp.status = 200;\n    return (deliver);\n",
            "    set beresp.http.Retry-After = \"30\";\n",
            "    if (beresp.status == 503) {\n        set beresp.body = \(page);\n        return (deliver);\n    }\n",
            "    set beresp.http.Content-Type = \"text/html\";\n    return (deliver);\n",
            "    return (abandon);\n",
        ])
        let synth = pick([
            "",
            "    set resp.body = std.fileread(\"\(pages)/\" + resp.status + \".html\");\n    return (deliver);\n",
            "    return (deliver);\n",
            "    if (resp.status == 503) {\n        set resp.body = std.fileread(\"\(pages)/503.html\");\n        set resp.status = 200;\n        return (deliver);\n    }\n",
        ])
        let closed = random.next() % 2 == 0 ? "    if (req.url ~ \"^/closed\") {\n        return (synth(503, \"Closed\"));\n    }\n" : ""
        var text = """
            vcl 4.1;

            import std;

            backend app {
                .host = "127.0.0.1";
                .port = "\(app)";
            }

            backend dead {
                .host = "127.0.0.1";
                .port = "\(dead)";
            }

            sub vcl_recv {
            \(closed)    if (req.url ~ "^/dead") {
                    set req.backend_hint = dead;
                } else {
                    set req.backend_hint = app;
                }
            }

            """
        for (name, body) in [("vcl_backend_response", response), ("vcl_backend_error", error), ("vcl_synth", synth)] where !body.isEmpty {
            text += "\nsub \(name) {\n\(body)}\n"
        }
        return text
    }
}
