import DetourApache
import DetourCaddy
import DetourDiagnostics
import DetourHAProxy
import DetourNginx
import DetourProxyCore
import DetourVarnish

/// How each server reads the configuration an article quotes, by the code block's language.
struct FragmentReader: Sendable {
    /// How findings name the server.
    var server: String
    var check: @Sendable (_ code: String, _ path: String, _ firstLine: Int, _ indent: Int) -> [Diagnostic]

    static let byLanguage: [String: FragmentReader] = [
        "nginx": nginx, "caddyfile": caddy, "caddy": caddy, "haproxy": haproxy, "apache": apache, "apacheconf": apache,
        "vcl": varnish,
    ]

    static let nginx = FragmentReader(server: "nginx", check: NginxFragmentCheck.check)

    /// A Caddyfile fragment that starts with a directive or a matcher is a site's inside.
    static let caddy = wholeChecker("Caddy", CaddyChecker.self, refusals: ["caddy.syntax", "caddy.directive"]) { text in
        FragmentShape.isCaddyfile(text) ? ConfigFragment(text) : ConfigFragment(text, before: "localhost:8080 {\n", after: "\n}\n")
    }

    /// An HAProxy fragment that does not open a section is a `listen` section's inside.
    static let haproxy = wholeChecker("HAProxy", HAProxyChecker.self, refusals: ["haproxy.syntax"]) { text in
        FragmentShape.isHAProxySections(text) ? ConfigFragment(text) : ConfigFragment(text, before: "listen fragment\n", after: "\n")
    }

    static let apache = wholeChecker("Apache", ApacheChecker.self, refusals: ["apache.syntax", "apache.section-depth"]) { ConfigFragment($0) }

    /// A VCL fragment gets what it needs to compile before it (`FragmentShape.vclHead`).
    static let varnish = wholeChecker("Varnish", VarnishChecker.self, refusals: ["varnish.syntax"]) { text in
        ConfigFragment(text, before: FragmentShape.vclHead(text))
    }

    /// A server whose checker reads whole files: the fragment as `wrap` makes it a file, and of
    /// the findings only its refusals; every other finding needs a whole configuration.
    private static func wholeChecker(
        _ server: String, _ dialect: any ProxyDialect.Type, refusals: Set<String>, wrap: @escaping @Sendable (String) -> ConfigFragment
    ) -> FragmentReader {
        FragmentReader(server: server) { code, path, firstLine, indent in
            wrap(code).findings(path: path, firstLine: firstLine, indent: indent) { file in
                let options = ProxyCheck.Options(main: file, mainDisplay: ConfigFragment.displayPath, pages: nil, maps: [])
                return dialect.check(options).diagnostics.filter { refusals.contains($0.rule) }
            }
        }
    }
}
