import DetourTestSupport
import Foundation

/// The reproductions of nginx configuration that passes `nginx -t` and fails per request: an
/// upstream address built from a variable that does not make one, and a page that includes
/// itself.
extension LogReproduction {
    /// nginx asked once for `/` with `location / { directives }`.
    private static func nginxLocation(_ directives: String) throws -> Outcome {
        try Reproduce.nginx(location: "location / { \(directives) }")
    }

    static let configurationAtRequestTime: [LogReproduction] = [
        .init(name: "nginx, proxy_pass from an empty variable", slugs: ["upstream-address-from-a-variable"], status: 500) {
            try nginxLocation(#"set $backend ""; proxy_pass $backend;"#)
        },
        .init(name: "nginx, proxy_pass from a variable without the scheme", slugs: ["upstream-address-from-a-variable"], status: 500) {
            try nginxLocation(#"set $backend "127.0.0.1:\#(LoopbackPort.free())"; proxy_pass $backend;"#)
        },
        // `$arg_port` is empty: the visitor sent no `?port=`.
        .init(name: "nginx, proxy_pass with a port from a missing argument", slugs: ["upstream-address-from-a-variable"], status: 500) {
            try nginxLocation("proxy_pass http://127.0.0.1:$arg_port;")
        },
        .init(name: "nginx, fastcgi_pass from a variable without a port", slugs: ["upstream-address-from-a-variable"], status: 500) {
            try nginxLocation(#"set $php "127.0.0.1"; fastcgi_pass $php;"#)
        },
        // What arrives is the page up to the include, once per level, then SSI's error text.
        .init(name: "nginx, an SSI page that includes itself", slugs: ["nginx-internal-redirection-cycle"], status: 200) {
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            try folder.write(["index.html": #"before <!--# include virtual="/index.html" --> after"#])
            return try nginxLocation("ssi on; root \(folder.path); index index.html;")
        },
    ]
}
