import DetourTestSupport
import Foundation

/// The reproductions of an authentication subrequest failing: nginx's `auth_request` (what
/// ingress-nginx's `auth-url` and oauth2-proxy, Authelia or authentik behind nginx use) to an
/// auth service that is down, answers what `auth_request` does not take or switches protocols
/// (as an SSI include can meet too), and Caddy's `forward_auth` to one that is down or
/// redirects.
extension LogReproduction {
    /// nginx asking `auth` (a URL) before it passes each request to an application that would
    /// answer 200; `server` goes into the server block (what the auth location inherits), and
    /// the visitor asks with curl's `options`.
    private static func nginxAuthRequest(_ auth: String, server: String = "", options: [String] = []) throws -> Outcome {
        try with(.answers) { application in
            try Reproduce.nginx(
                location: """
                    \(server)
                    location = /auth { internal; proxy_pass \(auth); proxy_pass_request_body off; proxy_set_header Content-Length ""; }
                    location / { auth_request /auth; proxy_pass http://127.0.0.1:\(application.port); }
                    """, options: options)
        }
    }

    /// What a visitor's browser sends to open a WebSocket.
    private static let webSocketHandshake = ["-H", "Upgrade: websocket", "-H", "Connection: Upgrade"]

    static let authRequests: [LogReproduction] = [
        // The subrequest's own failure is logged as any upstream's, with `subrequest: "/auth"`;
        // auth_request turns the 502 it ends with into 500.
        .init(name: "nginx auth_request, the auth service down", slugs: ["auth-request-failed", "upstream-connection-refused"], status: 500) {
            try nginxAuthRequest("http://127.0.0.1:\(LoopbackPort.free())")
        },
        .init(name: "nginx auth_request, the auth service too slow", slugs: ["auth-request-failed", "upstream-timed-out"], status: 500) {
            try with(.silent) { try nginxAuthRequest("http://127.0.0.1:\($0.port)") }
        },
        // Only 2xx (allow), 401 and 403 (deny) are answers auth_request takes: a redirect to a
        // sign-in page or a 404 for a wrong path is its 500.
        .init(name: "nginx auth_request, the auth service redirecting", slugs: ["auth-request-failed"], status: 500) {
            try with(.byPath) { try nginxAuthRequest("http://127.0.0.1:\($0.port)/s302") }
        },
        .init(name: "nginx auth_request, a path the auth service does not have", slugs: ["auth-request-failed"], status: 500) {
            try with(.byPath) { try nginxAuthRequest("http://127.0.0.1:\($0.port)/s404") }
        },
        // The WebSocket headers, set for the whole server, reach the auth service too; its
        // 101 cannot switch a subrequest, and the visitor gets no status line.
        .init(name: "nginx auth_request, the auth service switching protocols", slugs: ["auth-request-failed"], status: 0) {
            try with(.upgrades) { auth in
                try nginxAuthRequest(
                    "http://127.0.0.1:\(auth.port)",
                    server: "proxy_http_version 1.1; proxy_set_header Upgrade $http_upgrade; proxy_set_header Connection upgrade;",
                    options: webSocketHandshake)
            }
        },
        .init(name: "nginx SSI, an include of a location that switches protocols", slugs: ["auth-request-failed"], status: 0) {
            try with(.upgrades) { application in
                try Reproduce.nginx(
                    location: """
                        location = / { ssi on; default_type text/html; return 200 '<!--# include virtual="/live" -->'; }
                        location /live { proxy_http_version 1.1; proxy_set_header Upgrade websocket; proxy_set_header Connection upgrade;
                            proxy_pass http://127.0.0.1:\(application.port); }
                        """, options: webSocketHandshake)
            }
        },
        // Caddy's forward_auth passes any answer but 2xx on to the visitor as it came, and logs
        // nothing: a redirect to sign in is what the visitor needs.
        .init(name: "Caddy forward_auth, the auth service redirecting", slugs: [], status: 302) {
            try with(.answers) { application in
                try with(.byPath) { auth in
                    try Reproduce.caddy(site: "\tforward_auth 127.0.0.1:\(auth.port) {\n\t\turi /s302\n\t}\n\treverse_proxy 127.0.0.1:\(application.port)\n")
                }
            }
        },
        // Caddy's forward_auth is a reverse_proxy: an auth service that is down is its 502.
        .init(name: "Caddy forward_auth, the auth service down", slugs: ["upstream-connection-refused"], status: 502) {
            try with(.answers) { application in
                try Reproduce.caddy(
                    site: "\tforward_auth 127.0.0.1:\(LoopbackPort.free()) {\n\t\turi /auth\n\t}\n\treverse_proxy 127.0.0.1:\(application.port)\n")
            }
        },
    ]
}
