import DetourDiagnostics

/// One way through a method for one status, and what it ends with: the action returned, the
/// body and status set on the way, and what it did to caching.
struct VCLPath: Sendable {
    /// Where the response's body comes from, as last set.
    enum Body: Sendable {
        /// `std.fileread(…)`: the argument's tokens, and the status when it was read (a path
        /// that names the status reads that one, whatever the status becomes after).
        case file(path: [VCLToken], status: Int?, at: SourceLocation)
        /// Text written in the VCL.
        case text(at: SourceLocation)
        /// Varnish's "Guru Meditation" page, from the built-in VCL.
        case builtin
    }

    var action: String?
    var arguments: [[VCLToken]] = []
    var returnAt: SourceLocation?
    var status: Int?
    /// The last `set …status = N;` that changed the status, and where.
    var statusSetAt: SourceLocation?
    var body: Body?
    /// The last `set beresp.ttl = …;`: whether it keeps the object, and where.
    var ttl: (keeps: Bool, at: SourceLocation)?
    /// beresp.ttl in seconds where it is known: Varnish gives a backend's answer of a status it
    /// does not cache by default (every 5xx) -1 before vcl_backend_response runs, whatever its
    /// headers say; nil once the VCL sets it, or for a status its headers decide.
    var knownTTL: Double?
    var uncacheable = false
    /// An unknown condition chose the way: the outcome depends on the request or the backend.
    var dependsOnRequest = false
}
