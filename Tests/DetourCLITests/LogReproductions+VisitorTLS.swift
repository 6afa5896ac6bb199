import DetourTestSupport
import Foundation

/// nginx failing the visitor's TLS handshake on a certificate it loads per name.
extension LogReproduction {
    /// nginx serving TLS with a certificate and key chosen by `$ssl_server_name`, from a folder
    /// holding those of `shop.example` only (its key of mode 600, as `openssl req` writes it);
    /// asked by `name` (SNI), or by address with no name.
    private static func nginxWithCertificatePerName(asking name: String?) throws -> Outcome {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        chmod(folder.path, 0o755)
        let made = try ProcessRunner.run(
            try RequiredTool.find("openssl"),
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "shop.example.key", "-out", "shop.example.crt", "-days", "2", "-subj",
                "/CN=shop.example",
            ],
            in: folder.url)
        guard made.status == 0 else { throw ReproductionError(message: "openssl req: \(made.stderr)") }
        chmod(folder.path + "/shop.example.crt", 0o644)
        let server = """
            server { listen 127.0.0.1:PORT ssl;
                ssl_certificate \(folder.path)/$ssl_server_name.crt; ssl_certificate_key \(folder.path)/$ssl_server_name.key;
                location / { return 200; } }
            """
        return try Reproduce.nginx(server) { port in
            guard let name else { return try Visitor.status("https://127.0.0.1:\(port)/", ["-k"]) }
            return try Visitor.status("https://\(name):\(port)/", ["-k", "--resolve", "\(name):\(port):127.0.0.1"])
        }
    }

    static let visitorTLS: [LogReproduction] = [
        .init(name: "nginx, a name with no certificate file of its own", slugs: ["visitor-tls-handshake"], status: 0) {
            try nginxWithCertificatePerName(asking: "other.example")
        },
        .init(name: "nginx, a certificate per name asked with no name (no SNI)", slugs: ["visitor-tls-handshake"], status: 0) {
            try nginxWithCertificatePerName(asking: nil)
        },
        // The master, as root, could read the key; the worker, as nobody, may not.
        .init(name: "nginx, a certificate per name whose key the workers may not read", slugs: ["visitor-tls-handshake"], status: 0, runnable: getuid() == 0) {
            try nginxWithCertificatePerName(asking: "shop.example")
        },
    ]
}
