import DetourTestSupport
import Foundation

/// Apache's own configuration refusing a request as it walks to the file: a symbolic link
/// without FollowSymLinks, a RewriteRule in a folder that forbids links, a proxy rewrite with no
/// mod_proxy, a Require with no authentication to check it.
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
        .init(name: "Apache, Require valid-user with no AuthType", slugs: ["forbidden-by-configuration"], status: 500) {
            try apacheSite(modules: Reproduce.apacheModules + ["authn_core", "authz_user"], path: "/admin") { _ in
                "<Location /admin>\n    Require valid-user\n</Location>"
            }
        },
    ]
}
