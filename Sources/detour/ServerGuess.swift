import Foundation

/// `detour check <file>` without a server name: which server the file is for, from its name
/// and its first 64 KiB.
enum ServerGuess: String {
    case nginx, caddy, haproxy, apache, varnish

    private static let caddyDirectives = [
        "reverse_proxy", "file_server", "handle_errors", "php_fastcgi", "respond", "encode", "handle", "route", "basicauth", "redir",
    ]

    static func guess(_ file: URL) -> ServerGuess {
        let name = file.lastPathComponent.lowercased()
        if name.hasSuffix(".vcl") { return .varnish }
        if name.hasPrefix("caddyfile") || name.hasSuffix(".caddyfile") || name.hasSuffix(".caddy") { return .caddy }
        guard let data = FileManager.default.contents(atPath: file.path) else { return .nginx }
        let text = String(decoding: data.prefix(64 * 1024), as: UTF8.self)
        // VCL declares its version first, after comments at most.
        if text.range(of: #"(?m)^\s*vcl\s+4\.[01]\s*;"#, options: .regularExpression) != nil { return .varnish }
        if text.contains("<VirtualHost") || text.contains("ErrorDocument ") || name.hasPrefix("httpd") || name.hasPrefix("apache") { return .apache }
        // By any line ending: "\r\n" is one character, which a split on "\n" never finds.
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
        if lines.contains(where: { $0.hasPrefix("frontend ") || $0.hasPrefix("backend ") || $0.hasPrefix("defaults") }) || name.hasPrefix("haproxy") {
            return .haproxy
        }
        // Caddyfile lines end without `;` and start with its directives.
        let startsLikeCaddy = lines.contains { line in caddyDirectives.contains { line == $0 || line.hasPrefix($0 + " ") } }
        if startsLikeCaddy, !lines.contains(where: { $0.hasSuffix(";") }) { return .caddy }
        return .nginx
    }
}
