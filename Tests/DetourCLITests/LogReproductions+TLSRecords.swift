import DetourTestSupport
import Foundation

/// TLS to the upstream failing after the handshake succeeded: an upstream that resets the
/// connection while an upload is sent to it, and a record whose integrity check fails (what a
/// middlebox or an offload that corrupts traffic sends). Before the answer's header
/// the visitor gets 502; after it, the answer stops where the bad record came. nginx (at `crit`)
/// and Caddy name the TLS failure; HAProxy logs only that the server ended the session. And a
/// name TLS cannot carry, before any handshake.
extension LogReproduction {
    private static let peer = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("TLSPeer/tlspeer.py").path

    /// `body` with an HTTPS upstream on its port that sends a bad record before its answer
    /// (`stage` "head") or a kilobyte into it ("body"), or resets the connection ("reset").
    private static func withMisbehavingTLS(_ stage: String, _ body: (Int) throws -> Outcome) throws -> Outcome {
        let upstream = try TLSUpstream { certificate, key, port in ("python3", [peer, String(port), certificate, key, stage]) }
        defer { upstream.stop() }
        return try body(upstream.port)
    }

    /// Caddy proxying to the HTTPS upstream on `port` without verifying its certificate.
    private static func caddyTrusting(_ port: Int) -> String {
        "\treverse_proxy https://127.0.0.1:\(port) {\n\t\ttransport http {\n\t\t\ttls_insecure_skip_verify\n\t\t}\n\t}\n"
    }

    static let tlsRecords: [LogReproduction] = [
        // The visitor's Host as the name sent to the upstream (SNI): four labels of 63 bytes
        // are 260, more than the 255 TLS carries, and nginx answers 500 before the handshake.
        .init(name: "nginx, a visitor's name too long to send to a TLS upstream", slugs: ["upstream-tls"], status: 500) {
            let name = ["a", "b", "c", "d"].map { String(repeating: $0, count: 63) }.joined(separator: ".") + ".example"
            return try withMisbehavingTLS("head") {
                try Reproduce.nginx(
                    location: "location / { proxy_pass https://127.0.0.1:\($0); proxy_ssl_server_name on; proxy_ssl_name $host; }",
                    options: ["-H", "Host: " + name])
            }
        },
        // nginx names the TLS call, `SSL_write()`, where plain HTTP has `writev()`.
        .init(name: "nginx, a TLS upstream that resets during an upload", slugs: ["upstream-closed-connection"], status: 502) {
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            try Data(count: 8 << 20).write(to: folder.url.appendingPathComponent("upload"))
            return try withMisbehavingTLS("reset") {
                try Reproduce.nginx(
                    location: "location / { proxy_pass https://127.0.0.1:\($0); proxy_request_buffering off; }", http: "client_max_body_size 16m;",
                    options: ["--data-binary", "@" + folder.path + "/upload"])
            }
        },
        .init(name: "nginx, a bad TLS record from the upstream before its answer", slugs: ["upstream-tls"], status: 502) {
            try withMisbehavingTLS("head") { try Reproduce.nginx(location: "location / { proxy_pass https://127.0.0.1:\($0); }") }
        },
        // The status line came before the bad record: the visitor has 200 and part of the body.
        .init(name: "nginx, a bad TLS record from the upstream mid-answer", slugs: ["upstream-tls"], status: 200) {
            try withMisbehavingTLS("body") { try Reproduce.nginx(location: "location / { proxy_pass https://127.0.0.1:\($0); }") }
        },
        .init(name: "Caddy, a bad TLS record from the upstream before its answer", slugs: ["upstream-tls"], status: 502) {
            try withMisbehavingTLS("head") { try Reproduce.caddy(site: caddyTrusting($0)) }
        },
        .init(name: "Caddy, a bad TLS record from the upstream mid-answer", slugs: ["upstream-tls"], status: 200) {
            try withMisbehavingTLS("body") { try Reproduce.caddy(site: caddyTrusting($0)) }
        },
        .init(name: "HAProxy, a bad TLS record from the upstream before its answer", slugs: ["upstream-closed-connection"], status: 502) {
            try withMisbehavingTLS("head") { try Reproduce.haproxy(server: "127.0.0.1:\($0) ssl verify none") }
        },
        .init(name: "HAProxy, a bad TLS record from the upstream mid-answer", slugs: ["upstream-closed-connection"], status: 200) {
            try withMisbehavingTLS("body") { try Reproduce.haproxy(server: "127.0.0.1:\($0) ssl verify none") }
        },
    ]
}
