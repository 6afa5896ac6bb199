import DetourTestSupport
import Foundation

/// Apache's own configuration refusing a request as it walks to the file: a symbolic link
/// without FollowSymLinks, a RewriteRule in a folder that forbids links, a proxy rewrite with no
/// mod_proxy, a Require with no authentication to check it, ProxyBlock, and rewrites that loop
/// or would put what the visitor's address decodes to where it does not belong.
extension LogReproduction {
    /// Apache serving a folder holding `files` and, for each of `links`, a symbolic link to the
    /// file named, with `options` and `inFolder` in its `<Directory>`, `directives` in its server
    /// config and `modules`; asked first for each of `fixed`, which an article's fix lets through
    /// to a page that is not there (404, else that status is the outcome's), then for each of
    /// `paths`; the status is the last one's.
    private static func apacheSite(
        files: [String: String] = [:], links: [String: String] = [:], options: String = "None", inFolder: String = "", directives: String = "",
        modules: [String] = Reproduce.apacheModules, fixed: [String] = [], paths: [String]
    ) throws -> Outcome {
        let site = try TemporaryFolder(files: files)
        defer { site.remove() }
        chmod(site.path, 0o755)
        for (link, target) in links {
            try FileManager.default.createSymbolicLink(atPath: site.path + "/" + link, withDestinationPath: site.path + "/" + target)
        }
        let folder = "<Directory \(site.path)>\n    Require all granted\n    Options \(options)\n\(inFolder)\n</Directory>\n"
        return try Reproduce.apache(folder + directives, root: site.path, modules: modules) { port in
            for path in fixed {
                let status = try Visitor.status("http://127.0.0.1:\(port)\(path)")
                guard status == 404 else { return status }
            }
            var status = -1
            for path in paths { status = try Visitor.status("http://127.0.0.1:\(port)\(path)") }
            return status
        }
    }

    private static let withRewrite = Reproduce.apacheModules + ["rewrite"]
    private static let rewriteWithoutProxy = ["mpm_event", "authz_core", "rewrite"]

    static let apacheRules: [LogReproduction] = [
        .init(name: "Apache, a symbolic link without FollowSymLinks", slugs: ["forbidden-by-configuration"], status: 403) {
            try apacheSite(files: ["real.html": "real"], links: ["link.html": "real.html"], paths: ["/link.html"])
        },
        // mod_rewrite in a folder works by internal redirects, which could reach past a link.
        .init(name: "Apache, a RewriteRule in a folder without FollowSymLinks", slugs: ["forbidden-by-configuration"], status: 403) {
            try apacheSite(
                files: ["new.html": "new"], inFolder: "    RewriteEngine On\n    RewriteRule ^old\\.html$ new.html", modules: withRewrite, paths: ["/old.html"])
        },
        .init(name: "Apache, a RewriteRule [P] with no mod_proxy loaded", slugs: ["forbidden-by-configuration"], status: 403) {
            try apacheSite(
                directives: "RewriteEngine On\nRewriteRule ^/app/(.*)$ http://127.0.0.1:9/$1 [P]", modules: rewriteWithoutProxy, paths: ["/app/a"])
        },
        // The same rule in a folder (or .htaccess) logs it under its own AH number.
        .init(name: "Apache, a folder's RewriteRule [P] with no mod_proxy loaded", slugs: ["forbidden-by-configuration"], status: 403) {
            try apacheSite(
                options: "FollowSymLinks", inFolder: "    RewriteEngine On\n    RewriteRule ^app/(.*)$ http://127.0.0.1:9/$1 [P]",
                modules: rewriteWithoutProxy, paths: ["/app/a"])
        },
        // By the address as written (AH00916) or by what the name resolves to (AH00917).
        .init(name: "Apache, ProxyBlock naming the backend", slugs: ["forbidden-by-configuration"], status: 403) {
            try apacheSite(
                directives: "ProxyBlock 127.0.0.1\nProxyPass /ip http://127.0.0.1:9/\nProxyPass /name http://localhost:9/", paths: ["/ip", "/name"])
        },
        .init(name: "Apache, a RewriteRule [N] that matches its own result", slugs: ["nginx-internal-redirection-cycle"], status: 500) {
            try apacheSite(directives: "RewriteEngine On\nRewriteRule ^/n/(.*)$ /n/$1 [N]", modules: withRewrite, paths: ["/n/a"])
        },
        // Since 2.4.60 a `?` the visitor encoded may not become the query string's start.
        .init(name: "Apache, a rewrite of an address holding %3f", slugs: ["forbidden-by-configuration"], status: 403) {
            try apacheSite(
                files: ["page.html": "page"],
                directives: "RewriteEngine On\nRewriteRule ^/s/(.*)$ /page/$1 [L]\nRewriteRule ^/allowed/(.*)$ /page/$1 [L,UnsafeAllow3F]",
                modules: withRewrite, fixed: ["/allowed/a%3fb"], paths: ["/s/a%3fb"])
        },
        // In the server's rules (AH10410) and a folder's (AH10411).
        .init(name: "Apache, a space decoded into a rewritten query string", slugs: ["forbidden-by-configuration"], status: 403) {
            try apacheSite(
                files: ["page.html": "page"], options: "FollowSymLinks", inFolder: "    RewriteEngine On\n    RewriteRule ^d/(.*)$ page.html?x=$1 [L]",
                directives: "RewriteEngine On\nRewriteRule ^/q/(.*)$ /page.html?x=$1 [L]\nRewriteRule ^/escaped/(.*)$ /missing.html?x=$1 [L,B]",
                modules: withRewrite, fixed: ["/escaped/a%20b"], paths: ["/q/a%20b", "/d/a%20b"])
        },
        .init(name: "Apache, Require valid-user with no AuthType", slugs: ["forbidden-by-configuration"], status: 500) {
            try apacheSite(
                directives: "<Location /admin>\n    Require valid-user\n</Location>", modules: Reproduce.apacheModules + ["authn_core", "authz_user"],
                paths: ["/admin"])
        },
    ]
}
