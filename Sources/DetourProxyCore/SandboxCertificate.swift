/// The sandbox's throwaway TLS certificate, made for one run and deleted with the sandbox, in
/// the forms the servers read: the certificate, its private key, and both in one file (HAProxy's
/// `crt`). A listener the configuration serves over TLS keeps TLS with it, so that what depends
/// on the connection being secure (HAProxy's `ssl_fc`, nginx's `$https`) is decided as it is for
/// visitors; the probes do not check it.
public struct SandboxCertificate: Sendable {
    public var certificate: String
    public var key: String
    public var combined: String

    public init(certificate: String, key: String, combined: String) {
        self.certificate = certificate
        self.key = key
        self.combined = combined
    }
}
