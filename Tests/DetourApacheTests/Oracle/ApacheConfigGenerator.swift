import DetourTestSupport
import Foundation

/// Composes Apache configurations for the runtime oracle from building blocks (name-based
/// virtual hosts that proxy through `ProxyPass`, `<Location>`, `ProxyPassMatch` or a `[P]`
/// `RewriteRule`, that redirect or serve files; pages through `Alias` or `AliasMatch`, with
/// `ErrorDocument` in the server, the host, `<Location>`, `<Directory>` or `<If>`) and plants
/// faults (a code left out, no `ProxyErrorOverride` or a list that leaves codes out, the pages
/// proxied or guarded by `Require`, a URL, text or a missing file as the target, a
/// configuration Apache refuses), seeded.
struct ApacheConfigGenerator {
    static let codes = [500, 502, 503, 504]
    /// Every directive and section the generator can write, in `Oracle/apache-vocabulary.txt`.
    static let vocabularyFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("apache-vocabulary.txt")
    static let modules = [
        "mpm_event", "authz_core", "authz_host", "authz_user", "authn_core", "authn_file", "auth_basic", "alias", "rewrite", "proxy",
        "proxy_http",
    ]

    var random: SplitMix64

    private mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    /// The configuration for virtual hosts on `port`, pages in `pages` (its `errors/` folder),
    /// the upstream at `upstream`, state (pid, logs, `htpasswd`) in `folder`.
    mutating func configuration(port: Int, upstream: Int, pages: String, folder: String) -> String {
        var lines = [
            "ServerName localhost", "Listen 127.0.0.1:\(port)", "PidFile \(folder)/apache.pid", "DefaultRuntimeDir \(folder)",
            "ErrorLog \(folder)/error.log", "Mutex file:\(folder) default",
        ]
        lines += Self.modules.map { "LoadModule \($0)_module /usr/lib/apache2/modules/mod_\($0).so" }
        // Pages for every host from the main server, which the hosts inherit.
        let global = chance(25)
        if global { lines += ["Alias /errors/ \(pages)/errors/"] + errorDocuments(global: true) }
        lines.append("")
        for index in 0..<Int.random(in: 1...3, using: &random) {
            let host = "s\(index).test"
            lines += ["<VirtualHost 127.0.0.1:\(port)>", "    ServerName \(host)"]
            lines += site(host: host, upstream: upstream, pages: pages, folder: folder, inherits: global).map { "    " + $0 }
            lines += ["</VirtualHost>", ""]
        }
        return lines.joined(separator: "\n")
    }

    /// `ErrorDocument` lines for the codes, now and then one left out or with a faulty target,
    /// rarely one Apache refuses. A static host raises 500 only on an internal error, which no
    /// probe can provoke: the main server's 500, which such hosts inherit, is never faulty, so
    /// what the oracle judges is what it can see.
    private mutating func errorDocuments(global: Bool = false) -> [String] {
        var lines: [String] = []
        for code in Self.codes where (global && code == 500) || !chance(4) {
            switch global && code == 500 ? 4 : Int.random(in: 0..<40, using: &random) {
            case 0: lines.append("ErrorDocument \(code) http://status.example/\(code).html")
            case 1: lines.append("ErrorDocument \(code) errors/\(code).html")
            case 2: lines.append("ErrorDocument \(code) /errors/missing-\(code).html")
            case 3: lines.append("ErrorDocument \(code)")
            default: lines.append("ErrorDocument \(code) /errors/\(code).html")
            }
        }
        return lines
    }

    private mutating func site(host: String, upstream: Int, pages: String, folder: String, inherits: Bool) -> [String] {
        switch Int.random(in: 0..<10, using: &random) {
        case 0: return ["Redirect permanent / https://\(host)/"]
        case 1: return ["DocumentRoot \(pages)"]
        default: break
        }
        var lines: [String] = []
        // Rarely, what apache2 -t refuses before the pages matter: an Options word it does not
        // know or signed and unsigned ones mixed, a directive of a module not loaded (mod_expires).
        switch Int.random(in: 0..<40, using: &random) {
        case 0: lines += ["<Directory \(pages)>", "    Options +FollowSymlinksIfOwnerMatch", "</Directory>"]
        case 1: lines += ["<Directory \(pages)>", "    Options +Indexes FollowSymLinks", "</Directory>"]
        case 2: lines += ["<Directory \(pages)>", "    Options -indexes +symlinksifownermatch", "</Directory>"]
        case 3: lines.append("ExpiresActive On")
        default: break
        }
        let wholeSite = chance(30)
        let app = "http://127.0.0.1:\(upstream)"
        // The pages' own path: kept from the upstream where the whole site is proxied.
        if !inherits || chance(30) {
            lines.append(chance(25) ? "AliasMatch ^/errors/(.*)$ \(pages)/errors/$1" : "Alias /errors/ \(pages)/errors/")
        }
        if wholeSite {
            switch Int.random(in: 0..<10, using: &random) {
            case 0: break
            case 1: lines += ["<Location /errors/>", "    ProxyPass \"!\"", "</Location>"]
            default: lines.append("ProxyPass /errors/ !")
            }
        }
        switch Int.random(in: 0..<12, using: &random) {
        case 0: lines += ["<Location /errors/>", "    Require all denied", "</Location>"]
        case 1:
            lines += [
                "<Location /errors/>", "    AuthType Basic", "    AuthName staff", "    AuthUserFile \(folder)/htpasswd", "    Require valid-user",
                "</Location>",
            ]
        default: break
        }
        // The proxy, in one of its forms.
        let prefix = wholeSite ? "/" : "/app/"
        let pattern = wholeSite ? "^/(.*)$" : "^/app/(.*)$"
        switch Int.random(in: 0..<4, using: &random) {
        case 0: lines += ["<Location \(prefix)>", "    ProxyPass \(app)\(prefix)", "</Location>"]
        case 1: lines.append("ProxyPassMatch \(pattern) \(app)\(prefix)$1")
        case 2: lines += ["RewriteEngine On", "RewriteRule \(pattern) \(app)\(prefix)$1 [P]"]
        default: lines.append("ProxyPass \(prefix) \(app)\(prefix)")
        }
        lines.append("ProxyTimeout 1")
        switch Int.random(in: 0..<10, using: &random) {
        case 0: break
        case 1: lines.append("ProxyErrorOverride Off")
        case 2: lines.append("ProxyErrorOverride On " + Self.codes.filter { _ in chance(60) }.map(String.init).joined(separator: " "))
        case 3: lines.append("ProxyErrorOverride On " + Self.codes.map(String.init).joined(separator: " "))
        default: lines.append("ProxyErrorOverride On")
        }
        guard !inherits || chance(20) else { return lines }
        // Where the pages are given.
        let documents = errorDocuments()
        switch Int.random(in: 0..<12, using: &random) {
        case 0: lines += ["<Location />"] + documents.map { "    " + $0 } + ["</Location>"]
        case 1: lines += ["<Location \(prefix)>"] + documents.map { "    " + $0 } + ["</Location>"]
        case 2: lines += ["<Directory \(pages)>"] + documents.map { "    " + $0 } + ["</Directory>"]
        case 3: lines += ["<If \"-n %{HTTP_HOST}\">"] + documents.map { "    " + $0 } + ["</If>"]
        default: lines += documents
        }
        return lines
    }
}
