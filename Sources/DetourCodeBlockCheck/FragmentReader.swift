import DetourApache
import DetourCaddy
import DetourHAProxy

/// How each server's quoted configuration is read.
enum FragmentChecks {
    /// A Caddyfile fragment that starts with a directive or a matcher is a site's inside.
    static let caddy = ServerFragment(dialect: CaddyChecker.self, refusalRules: ["caddy.syntax", "caddy.directive"]) { text in
        let first = firstWord(text)
        let isSite = first.hasPrefix("{") || first.contains(".") || first.contains(":") || first.hasPrefix("localhost") || first.hasPrefix("http")
        return isSite ? nil : ("localhost:8080 {\n", "\n}\n")
    }

    /// An HAProxy fragment that does not open a section is a `listen` section's inside.
    static let haproxy = ServerFragment(dialect: HAProxyChecker.self, refusalRules: ["haproxy.syntax"]) { text in
        let sections: Set = [
            "global", "defaults", "frontend", "backend", "listen", "resolvers", "peers", "userlist", "mailers", "program", "http-errors", "cache",
            "ring", "log-forward",
        ]
        return sections.contains(firstWord(text)) ? nil : ("listen fragment\n", "\n")
    }

    static let apache = ServerFragment(dialect: ApacheChecker.self, refusalRules: ["apache.syntax", "apache.section-depth"]) { _ in nil }

    /// The first word that is not a comment.
    private static func firstWord(_ text: String) -> String {
        for line in text.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            return String(trimmed.prefix { $0 != " " && $0 != "\t" })
        }
        return ""
    }
}
