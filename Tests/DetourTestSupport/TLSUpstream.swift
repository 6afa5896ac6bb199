import Foundation

/// An HTTPS upstream on 127.0.0.1 with a self-signed certificate no public CA vouches for:
/// OpenSSL's test server, answering each request with a status page. The certificate names
/// `app.internal` in its subject only, or also the names in `subjectAltName` (`IP:127.0.0.1`),
/// which clients that ignore the subject (Go) look for. `server` replaces OpenSSL's server with
/// another that holds the same certificate: given its certificate file, key file and port, the
/// command and arguments that start it.
public final class TLSUpstream {
    public let port: Int
    /// Its certificate, for a client told to trust it (`proxy_ssl_trusted_certificate`).
    public var certificate: String { folder.path + "/cert.pem" }
    private let folder: TemporaryFolder
    private let server: ServerProcess

    public init(subjectAltName: String? = nil, server command: ((String, String, Int) -> (String, [String]))? = nil) throws {
        folder = try TemporaryFolder()
        let openssl = try RequiredTool.find("openssl")
        let names = subjectAltName.map { ["-addext", "subjectAltName=\($0)"] } ?? []
        let made = try ProcessRunner.run(
            openssl,
            ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "key.pem", "-out", "cert.pem", "-days", "2", "-subj", "/CN=app.internal"] + names,
            in: folder.url)
        guard made.status == 0 else { throw POSIXError(.EINVAL) }
        port = LoopbackPort.free()
        let certificate = folder.path + "/cert.pem"
        let key = folder.path + "/key.pem"
        let (program, arguments) =
            command?(certificate, key, port)
            ?? ("openssl", ["s_server", "-accept", "127.0.0.1:\(port)", "-cert", certificate, "-key", key, "-www", "-quiet"])
        server = try ServerProcess(program, arguments, log: folder.url.appendingPathComponent("server.log"))
        _ = LoopbackPort.waitUntilOpen(port)
    }

    public func stop() {
        server.stop()
        folder.remove()
    }
}
