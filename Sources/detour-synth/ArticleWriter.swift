import Foundation

/// One synthetic article's Markdown, built from proxy-operations vocabulary.
struct ArticleWriter {
    let count: Int
    private var random = SeededGenerator(state: 42)

    init(count: Int) {
        self.count = count
    }

    private static let nouns = [
        "upstream", "backend", "worker", "socket", "timeout", "buffer", "header", "certificate", "health check", "load balancer", "connection", "request",
        "response", "listener", "pool", "process", "container", "firewall", "resolver", "proxy", "cache", "session", "cookie", "handshake", "keepalive",
        "queue", "thread", "port", "route", "origin",
    ]
    private static let verbs = [
        "refuses", "drops", "resets", "delays", "rejects", "retries", "closes", "exhausts", "blocks", "forwards", "rewrites", "buffers", "answers", "logs",
        "restarts",
    ]
    private static let adjectives = [
        "slow", "idle", "busy", "stale", "missing", "invalid", "oversized", "expired", "unhealthy", "overloaded", "misconfigured", "half-open", "default",
        "dedicated", "upstream",
    ]
    private static let servers = ["nginx", "Caddy", "HAProxy", "Apache", "PHP-FPM", "Gunicorn", "uWSGI", "Node.js", "Cloudflare", "CloudFront"]
    private static let settings = [
        "proxy_read_timeout 60s;", "proxy_buffer_size 16k;", "timeout server 30s", "pm.max_children = 20", "ProxyTimeout 120", "keepalive_timeout 65;",
        "fastcgi_read_timeout 300;", "tune.bufsize 32768", "response_header_timeout 30s", "max_fails=3 fail_timeout=10s",
    ]
    private static let logs = [
        "connect() failed (111: Connection refused) while connecting to upstream",
        "upstream timed out (110: Connection timed out) while reading response header from upstream",
        "upstream sent too big header while reading response header from upstream", "no live upstreams while connecting to upstream",
        "backend app has no server available!", "recv() failed (104: Connection reset by peer)",
    ]
    private static let tags = [
        "nginx", "caddy", "haproxy", "apache", "php-fpm", "timeouts", "buffers", "tls", "cdn", "health-checks", "containers", "dns", "kubernetes", "systemd",
        "logging",
    ]

    private mutating func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }

    private mutating func sentence() -> String {
        let words = (0..<(8 + Int(random.next() % 10))).map { _ -> String in
            switch random.next() % 4 {
            case 0: pick(Self.nouns)
            case 1: pick(Self.verbs)
            case 2: pick(Self.adjectives)
            default: pick(["the", "a", "when", "because", "until", "after", "every", "its", "our", "this"])
            }
        }
        let text = words.joined(separator: " ")
        return text.prefix(1).uppercased() + text.dropFirst() + "."
    }

    private mutating func paragraph() -> String {
        var sentences = (0..<(3 + Int(random.next() % 4))).map { _ in sentence() }
        if random.next() % 3 == 0 { sentences.append("Check `\(pick(Self.settings))` in \(pick(Self.servers)).") }
        return sentences.joined(separator: " ")
    }

    /// A server name of letters only (a number in a log pattern matches any number), so each
    /// article's log pattern is its own and none hides another's.
    static func serverName(_ index: Int) -> String {
        var name = ""
        var rest = index
        repeat {
            name.append(Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8(rest % 26))))
            rest /= 26
        } while rest > 0
        return "shop-" + name
    }

    mutating func article(_ index: Int) -> String {
        let server = pick(Self.servers)
        let title = "\(server): \(pick(Self.adjectives)) \(pick(Self.nouns)) \(pick(Self.verbs)) requests (\(index))"
        let codes = [502, 503, 504, 500].shuffled(using: &random).prefix(1 + Int(random.next() % 2)).map(String.init)
        let tags = Set((0..<3).map { _ in pick(Self.tags) }).sorted()
        var text = """
            ---
            title: "\(title)"
            summary: "\(sentence())"
            codes: [\(codes.joined(separator: ", "))]
            tags: [\(tags.joined(separator: ", "))]
            audience: operator
            updated: 2026-\(String(format: "%02d", 1 + index % 12))-\(String(format: "%02d", 1 + index % 28))
            log_patterns:
              - "\(pick(Self.logs)), server: \(Self.serverName(index))"
            ---

            \(paragraph())

            """
        for section in 0..<4 {
            text += "\n## \(pick(Self.adjectives).capitalized) \(pick(Self.nouns)) \(section + 1)\n\n\(paragraph())\n\n\(paragraph())\n"
            if section == 1 {
                text += "\n- \(sentence())\n- \(sentence())\n- \(sentence())\n"
            }
            if section == 2 {
                text += "\n```\n\(pick(Self.settings))\n\(pick(Self.logs))\n```\n"
            }
        }
        let other = (index * 7 + 3) % count
        text += "\nSee also [a related problem](../section-\(other % 50)/topic-\(other).md) and [the \(codes[0]) page](/codes/\(codes[0])/).\n"
        return text
    }
}
