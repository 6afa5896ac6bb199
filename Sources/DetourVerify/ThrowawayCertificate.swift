import Crypto
import DetourProxyCore
import Foundation
import X509
import _CryptoExtras

/// Makes the sandbox's `SandboxCertificate`: a new RSA key and a certificate it signs itself,
/// valid for a day, written into the sandbox folder readable by its owner alone. RSA, as every
/// cipher list a configuration may pin (`ECDHE-RSA-…` alone, TLS 1.2 at most) takes it.
enum ThrowawayCertificate {
    static func write(into folder: String) -> SandboxCertificate? {
        guard let key = try? _RSA.Signing.PrivateKey(keySize: .bits2048) else { return nil }
        let now = Date()
        guard
            let name = try? DistinguishedName { CommonName("detour verify sandbox") },
            let certificate = try? Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey), notValidBefore: now.addingTimeInterval(-3600),
                notValidAfter: now.addingTimeInterval(86400), issuer: name, subject: name, signatureAlgorithm: .sha256WithRSAEncryption,
                extensions: Certificate.Extensions(), issuerPrivateKey: .init(key)),
            let certificatePEM = try? certificate.serializeAsPEM().pemString
        else { return nil }
        let files = SandboxCertificate(certificate: folder + "/tls/certificate.pem", key: folder + "/tls/key.pem", combined: folder + "/tls/combined.pem")
        let contents = [
            files.certificate: certificatePEM + "\n", files.key: key.pemRepresentation + "\n",
            files.combined: certificatePEM + "\n" + key.pemRepresentation + "\n",
        ]
        guard (try? FileManager.default.createDirectory(atPath: folder + "/tls", withIntermediateDirectories: true)) != nil else { return nil }
        for (path, text) in contents {
            // The servers read it as they start, before their workers drop to nobody.
            guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else { return nil }
        }
        return files
    }
}
