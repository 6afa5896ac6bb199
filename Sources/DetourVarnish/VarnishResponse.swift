import DetourDiagnostics

/// How Varnish came to answer a visitor with an error, and what the VCL made of it: the way
/// through `vcl_backend_error` or `vcl_synth` that built the response.
struct VarnishResponse: Sendable {
    enum Cause: Sendable, Equatable {
        /// No backend answered: `vcl_backend_error` with 503.
        case deadBackend
        /// The backend's own error status, handed to `vcl_backend_error` by `return (error(…))`.
        case backendStatus(Int)
        /// `return (error(N))` written in the VCL.
        case backendError(at: SourceLocation)
        /// `return (synth(N))` written in the VCL (or the built-in VCL's).
        case synth(at: SourceLocation)
        /// A fetch abandoned or failed: `vcl_synth` with 503.
        case abandonedFetch(at: SourceLocation?)
        /// The backend broke its answer off before delivery began: `vcl_synth` with 503 (once
        /// delivery has begun, visitors get the answer cut short instead; which comes first is
        /// a race in varnishd).
        case brokenOff
    }

    /// What the visitor's request met first, wherever the VCL took it from there.
    enum Trigger: Sendable, Equatable {
        case deadBackend
        case backendStatus(Int)
        case synth(Int)
        case error(Int)
        case brokenOff
    }

    var code: Int
    var cause: Cause
    var trigger: Trigger
    /// `vcl_backend_error` or `vcl_synth`.
    var method: String
    var path: VCLPath

    /// Whether the body is Varnish's own page or none at all.
    var isBuiltinOrEmpty: Bool {
        switch path.body {
        case .builtin?, nil: return path.action == "deliver"
        default: return false
        }
    }

    /// The status visitors get.
    var status: Int { path.status ?? code }
}
