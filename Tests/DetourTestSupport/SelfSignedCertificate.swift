import Foundation

/// A certificate (for `localhost` unless told) that no CA vouches for, and its key, written into a folder:
/// for a real server a test speaks TLS to, its client told to accept it.
public enum SelfSignedCertificate {
    /// OpenSSL refused to make one; its own words.
    public struct Refused: Error, CustomStringConvertible {
        public var description: String
    }

    /// Writes `cert.pem` and `key.pem` into `folder`, their names after `prefix`, for
    /// `commonName`.
    public static func write(into folder: String, commonName: String = "localhost", prefix: String = "") throws {
        let made = try ProcessRunner.run(
            try RequiredTool.find("openssl"),
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=\(commonName)", "-keyout", "\(folder)/\(prefix)key.pem",
                "-out", "\(folder)/\(prefix)cert.pem",
            ])
        guard made.status == 0 else { throw Refused(description: made.stderr) }
    }
}
