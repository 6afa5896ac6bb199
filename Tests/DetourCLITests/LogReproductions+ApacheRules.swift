import DetourTestSupport
import Foundation

/// Apache's own configuration refusing a request as it walks to the file: a symbolic link
/// without FollowSymLinks, a RewriteRule in a folder that forbids links, a proxy rewrite with no
/// mod_proxy, a Require with no authentication to check it, ProxyBlock, and rewrites that loop
/// or would put what the visitor's address decodes to where it does not belong.
extension LogReproduction {
    /// Apache serving a folder holding `files` and, for each of `links`, a symbolic link to
    /// the file named, with `Options None`, the directives `directives` writes for the
    /// folder's path and `modules`; asked once for `path`.
    private static func apacheSite(
        files: [String: String] = [:], links: [String: String] = [:], modules: [String] = Reproduce.apacheModules, path: String,
        _ directives: (String) -> String
    ) throws -> Outcome {
        let site = try TemporaryFolder(files: files)
        defer { site.remove() }
        chmod(site.path, 0o755)
        for (link, target) in links {
            try FileManager.default.createSymbolicLink(atPath: site.path + "/" + link, withDestinationPath: site.path + "/" + target)
        }
        let folder = "<Directory \(site.path)>\n    Require all granted\n    Options None\n</Directory>\n"
        return try Reproduce.apache(folder + directives(site.path), root: site.path, path: path, modules: modules)
    }

    /// Apache with `directives` in its server config and `folder` for its DocumentRoot's
    /// `<Directory>` (FollowSymLinks on), asked first for each of `fixed`, which the articles'
    /// fix lets through to a page that is not there (404, else that status is the outcome's),
    /// then for each of `paths`; the status is the last one's.
    private static func apacheRewrites(_ directives: String, folder: String = "", fixed: [String] = [], paths: [String]) throws -> Outcome {
        let site = try TemporaryFolder(files: ["page.html": "page"])
        defer { site.remove() }
        chmod(site.path, 0o755)
        let config = "<Directory \(site.path)>\n    Require all granted\n    Options FollowSymLinks\n\(folder)\n</Directory>\n\(directives)"
        return try Reproduce.apache(config, root: site.path, modules: Reproduce.apacheModules + ["rewrite"]) { port in
            for path in fixed {
                let status = try Visitor.status("http://127.0.0.1:\(port)\(path)")
                guard status == 404 else { return status }
            }
            var status = -1
            for path in paths { status = try Visitor.status("http://127.0.0.1:\(port)\(path)") }
            return status
        }
    }

    static let apacheRules: [LogReproduction] = [
        .init(name: "Apache, a symbolic link without FollowSymLinks", slugs: ["forbidden-by-configuration"], status: 403) {
            try apacheSite(files: ["real.html": "real"], links: ["link.html": "real.html"], path: "/link.html") { _ in "" }
        },
        // mod_rewrite in a folder works by internal redirects, which could reach past a link.
        .init(name: "Apache, a RewriteRule in a folder without FollowSymLinks", slugs: ["forbidden-by-configuration"], status: 403) {
            try apacheSite(files: ["new.html": "new"], modules: Reproduce.apacheModules + ["rewrite"], path: "/old.html") {
                "<Directory \($0)>\n    RewriteEngine On\n    RewriteRule ^old\\.html$ new.html\n</Directory>"
            }
        },
        .init(name: "Apache, a RewriteRule [P] with no mod_proxy loaded", slugs: ["forbidden-by-configuration"], status: 403) {
            try apacheSite(modules: ["mpm_event", "authz_core", "rewrite"], path: "/app/a") { _ in
                "RewriteEngine On\nRewriteRule ^/app/(.*)$ http://127.0.0.1:9/$1 [P]"
            }
        },
        // The same rule in a folder (or .htaccess) logs it under its own AH number.
        .init(name: "Apache, a folder's RewriteRule [P] with no mod_proxy loaded", slugs: ["forbidden-by-configuration"], status: 403) {
            try apacheSite(modules: ["mpm_event", "authz_core", "rewrite"], path: "/app/a") {
                "<Directory \($0)>\n    Options FollowSymLinks\n    RewriteEngine On\n    RewriteRule ^app/(.*)$ http://127.0.0.1:9/$1 [P]\n</Directory>"
            }
        },
        // By the address as written (AH00916) or by what the name resolves to (AH00917).
        .init(name: "Apache, ProxyBlock naming the backend", slugs: ["forbidden-by-configuration"], status: 403) {
            try apacheRewrites("ProxyBlock 127.0.0.1\nProxyPass /ip http://127.0.0.1:9/\nProxyPass /name http://localhost:9/", paths: ["/ip", "/name"])
        },
        .init(name: "Apache, a RewriteRule [N] that matches its own result", slugs: ["nginx-internal-redirection-cycle"], status: 500) {
            try apacheRewrites("RewriteEngine On\nRewriteRule ^/n/(.*)$ /n/$1 [N]", paths: ["/n/a"])
        },
        // Since 2.4.60 a `?` the visitor encoded may not become the query string's start.
        .init(name: "Apache, a rewrite of an address holding %3f", slugs: ["forbidden-by-configuration"], status: 403) {
            try apacheRewrites(
                "RewriteEngine On\nRewriteRule ^/s/(.*)$ /page/$1 [L]\nRewriteRule ^/allowed/(.*)$ /page/$1 [L,UnsafeAllow3F]", fixed: ["/allowed/a%3fb"],
                paths: ["/s/a%3fb"])
        },
        // In the server's rules (AH10410) and a folder's (AH10411).
        .init(name: "Apache, a space decoded into a rewritten query string", slugs: ["forbidden-by-configuration"], status: 403) {
            try apacheRewrites(
                "RewriteEngine On\nRewriteRule ^/q/(.*)$ /page.html?x=$1 [L]\nRewriteRule ^/escaped/(.*)$ /missing.html?x=$1 [L,B]",
                folder: "    RewriteEngine On\n    RewriteRule ^d/(.*)$ page.html?x=$1 [L]", fixed: ["/escaped/a%20b"], paths: ["/q/a%20b", "/d/a%20b"])
        },
        .init(name: "Apache, Require valid-user with no AuthType", slugs: ["forbidden-by-configuration"], status: 500) {
            try apacheSite(modules: Reproduce.apacheModules + ["authn_core", "authz_user"], path: "/admin") { _ in
                "<Location /admin>\n    Require valid-user\n</Location>"
            }
        },
    ]
}
