/// Where a configuration fragment quoted in an article goes, read from its first word: the same
/// for detour's own readers and for the tests that have the real servers load it.
public enum FragmentShape {
    /// A Caddyfile fragment that starts with a global options block or a site address is a
    /// whole Caddyfile; one that starts with a directive or a matcher is a site's inside.
    public static func isCaddyfile(_ text: String) -> Bool {
        let first = firstWord(text)
        return first.hasPrefix("{") || first.contains(".") || first.contains(":") || first.hasPrefix("localhost") || first.hasPrefix("http")
    }

    /// An HAProxy fragment that opens a section is whole sections; any other is a section's inside.
    public static func isHAProxySections(_ text: String) -> Bool { haproxySections.contains(firstWord(text)) }

    static let haproxySections: Set = [
        "global", "defaults", "frontend", "backend", "listen", "resolvers", "peers", "userlist", "mailers", "program", "http-errors", "cache",
        "ring", "log-forward",
    ]

    /// What a VCL fragment (subroutines, as articles quote them) needs before it to compile:
    /// the version line, `import std;` where it calls std, and a backend where it names none.
    public static func vclHead(_ text: String) -> String {
        var head = text.contains("vcl 4.") ? "" : "vcl 4.1;\n"
        if text.contains("std."), !text.contains("import std") { head += "import std;\n" }
        if text.firstMatch(of: #/(?m)^\s*backend\s+\w+\s*\{/#) == nil { head += "backend default { .host = \"127.0.0.1\"; .port = \"1\"; }\n" }
        return head
    }

    /// The first word that is not a comment.
    static func firstWord(_ text: String) -> String {
        for line in text.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            return String(trimmed.prefix { $0 != " " && $0 != "\t" })
        }
        return ""
    }
}
