import DetourTestSupport
import Foundation

/// nginx failing the visitor's TLS handshake on a certificate it loads per name: no file, no
/// name, a key the workers may not read, a key of another certificate, a key too small, an
/// intermediate with a key too small.
extension LogReproduction {
    /// What the files of `shop.example` hold.
    private enum CertificateFiles {
        /// A certificate and its key, the key of mode 600 as `openssl req` writes it.
        case matching
        /// A certificate and the key of another one, both readable by all.
        case keyOfAnother
        /// A certificate with a 1024-bit RSA key, below OpenSSL 3's default security level.
        case smallKey
        /// A certificate signed by an intermediate with a 1024-bit key, the two in one file as a
        /// certificate authority hands out a chain.
        case weakIntermediate
    }

    /// A self-signed certificate for `shop.example` written to `certificate` with its key of
    /// `bits` bits to `key`, in `folder`.
    private static func makeCertificate(in folder: TemporaryFolder, certificate: String, key: String, bits: Int = 2048) throws {
        let made = try ProcessRunner.run(
            try RequiredTool.find("openssl"),
            ["req", "-x509", "-newkey", "rsa:\(bits)", "-nodes", "-keyout", key, "-out", certificate, "-days", "2", "-subj", "/CN=shop.example"],
            in: folder.url)
        guard made.status == 0 else { throw ReproductionError(message: "openssl req: \(made.stderr)") }
        chmod(folder.path + "/" + certificate, 0o644)
    }

    /// `shop.example.crt` holding a 2048-bit certificate and, after it, the 1024-bit
    /// intermediate that signed it (SHA-256, so only the intermediate's key is too small), with
    /// `shop.example.key` readable by all.
    private static func makeSignedByWeakIntermediate(in folder: TemporaryFolder) throws {
        try makeCertificate(in: folder, certificate: "intermediate.crt", key: "intermediate.key", bits: 1024)
        let openssl = try RequiredTool.find("openssl")
        for arguments in [
            ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "shop.example.key", "-out", "shop.csr", "-subj", "/CN=shop.example"],
            [
                "x509", "-req", "-in", "shop.csr", "-CA", "intermediate.crt", "-CAkey", "intermediate.key", "-CAcreateserial", "-sha256", "-days", "2", "-out",
                "leaf.crt",
            ],
        ] {
            let made = try ProcessRunner.run(openssl, arguments, in: folder.url)
            guard made.status == 0 else { throw ReproductionError(message: "openssl \(arguments[0]): \(made.stderr)") }
        }
        let chain =
            try String(contentsOf: folder.url.appendingPathComponent("leaf.crt"), encoding: .utf8)
            + String(contentsOf: folder.url.appendingPathComponent("intermediate.crt"), encoding: .utf8)
        try chain.write(to: folder.url.appendingPathComponent("shop.example.crt"), atomically: true, encoding: .utf8)
        chmod(folder.path + "/shop.example.crt", 0o644)
        chmod(folder.path + "/shop.example.key", 0o644)
    }

    /// nginx serving TLS with a certificate and key chosen by `$ssl_server_name`, from a folder
    /// holding those of `shop.example` only (as `files` tells); asked by `name` (SNI), or by
    /// address with no name.
    private static func nginxWithCertificatePerName(asking name: String?, files: CertificateFiles = .matching) throws -> Outcome {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        chmod(folder.path, 0o755)
        switch files {
        case .matching:
            try makeCertificate(in: folder, certificate: "shop.example.crt", key: "shop.example.key")
        case .keyOfAnother:
            try makeCertificate(in: folder, certificate: "shop.example.crt", key: "renewed.key")
            try makeCertificate(in: folder, certificate: "renewed.crt", key: "shop.example.key")
            chmod(folder.path + "/shop.example.key", 0o644)
        case .smallKey:
            try makeCertificate(in: folder, certificate: "shop.example.crt", key: "shop.example.key", bits: 1024)
            chmod(folder.path + "/shop.example.key", 0o644)
        case .weakIntermediate:
            try makeSignedByWeakIntermediate(in: folder)
        }
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
        // A renewal that replaced the key and not the certificate.
        .init(name: "nginx, a certificate per name with the key of another", slugs: ["visitor-tls-handshake"], status: 0) {
            try nginxWithCertificatePerName(asking: "shop.example", files: .keyOfAnother)
        },
        .init(name: "nginx, a certificate per name with a key too small for OpenSSL 3", slugs: ["visitor-tls-handshake"], status: 0) {
            try nginxWithCertificatePerName(asking: "shop.example", files: .smallKey)
        },
        .init(name: "nginx, a certificate per name whose intermediate has a key too small", slugs: ["visitor-tls-handshake"], status: 0) {
            try nginxWithCertificatePerName(asking: "shop.example", files: .weakIntermediate)
        },
    ]
}
