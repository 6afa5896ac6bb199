import DetourProxyCore

/// The table `detour check` ends with: per server block, which file answers each code, then
/// how much was read, so a user sees that the includes were followed.
enum CoverageTable {
    /// `site`: what a site is called in the server's own terms (nginx's server, Caddy's site).
    static func render(_ coverage: [SiteCoverage], pages: String?, files: Int, site: String = "server") -> String {
        let blocks = site + " block"
        var out = pages.map { "Coverage of the pages in \($0)/:\n" } ?? "Coverage:\n"
        if coverage.isEmpty { out += "  no \(blocks)s\n" }
        for server in coverage {
            out += "  \(server.location.description)  \(site) \(server.name)\n"
            if server.answers.isEmpty { out += "    no error pages\n" }
            for (code, answer) in server.answers {
                out += "    \(code)  \(answer ?? "not covered")\n"
            }
        }
        return out + "\(count(coverage.count, blocks)) in \(count(files, "file"))\n"
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
