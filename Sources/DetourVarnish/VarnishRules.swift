import DetourDiagnostics
import DetourProxyCore

/// Every rule `detour check varnish` reports, each once: its id, severity and what visitors
/// get when it fires. A check every dialect shares (`SharedCheck`) has the same id suffix in each.
enum VarnishRules {
    static let syntax = RuleDescription(
        "varnish.syntax", .error,
        summary:
            "a VCL varnishd -C refuses: no 'vcl 4.x;' first, a token or statement out of place, an include it cannot read, a VMOD it cannot find, a call to no subroutine, a subroutine, ACL, probe or backend never used, a variable unknown or out of reach in a method that calls it, a return the method does not take",
        consequence: "Varnish refuses to load the VCL"
    )
    static let missingFile = RuleDescription(
        SharedCheck.missingFile.id("varnish"), .error,
        summary: "a std.fileread in vcl_backend_error or vcl_synth that reads a page file that does not exist (varnishd -C passes it)",
        consequence: "an empty body with the error's status"
    )
    static let codeNotCovered = RuleDescription(
        SharedCheck.codeNotCovered.id("varnish"), .error,
        summary:
            "a code detour made a page for that Varnish raises (503 for a dead backend, an abandoned fetch or a backend that breaks its answer off before delivery, a status the VCL returns with synth or error, a backend's 5xx the VCL turns into an error) and whose vcl_backend_error or vcl_synth leaves the built-in page or no body",
        consequence: "Varnish's 'Error 503 Backend fetch failed' page with its Guru Meditation, unbranded, in English (or an empty body)"
    )
    static let softStatus = RuleDescription(
        SharedCheck.softStatus.id("varnish"), .error,
        summary: "an error page sent with a status below 400 (set beresp.status or resp.status to 200 in vcl_backend_error or vcl_synth)",
        consequence: "a success status: crawlers index the error page, monitors see the site working"
    )
    static let upstreamPassThrough = RuleDescription(
        SharedCheck.upstreamPassThrough.id("varnish"), .warning,
        summary: "a vcl_backend_response that delivers the backend's own 5xx for a code detour made a page for, instead of 'return (error(beresp.status))'",
        consequence: "the application's own 500/503 body, not the branded page"
    )
    static let errorCached = RuleDescription(
        "varnish.error-cached", .warning,
        summary:
            "a 5xx kept in the cache: a beresp.ttl above zero set on the way a backend's 5xx or vcl_backend_error's page is delivered, with no beresp.uncacheable = true after it",
        consequence: "every visitor gets the cached error, in the first visitor's language, until its TTL ends, even once the backend is back"
    )

    /// Reading the configuration as the server does first, then the rules, in the order they run.
    static let all: [RuleDescription] = [syntax, missingFile, codeNotCovered, softStatus, upstreamPassThrough, errorCached]
}
