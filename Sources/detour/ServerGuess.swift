import Foundation

/// `detour check <file>` without a server name: recognise configurations of other servers so
/// they are not read as nginx.
enum ServerGuess {
    /// "an Apache", "a Caddy", "an HAProxy", or nil when the file may well be nginx.
    static func nonNginxServer(_ file: URL) -> String? {
        let name = file.lastPathComponent.lowercased()
        if name.hasPrefix("caddyfile") { return "a Caddy" }
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        let text = String(decoding: data.prefix(64 * 1024), as: UTF8.self)
        if text.contains("<VirtualHost") || text.contains("ErrorDocument ") || name.hasPrefix("httpd") || name.hasPrefix("apache") { return "an Apache" }
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        if lines.contains(where: { $0.hasPrefix("frontend ") || $0.hasPrefix("backend ") || $0.hasPrefix("defaults") }) || name.hasPrefix("haproxy") { return "an HAProxy" }
        return nil
    }
}
