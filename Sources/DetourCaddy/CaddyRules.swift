import DetourDiagnostics
import DetourProxyCore

/// Every rule `detour check caddy` reports, each once: its id, severity and what visitors
/// get when it fires. Findings name their rule by these constants; the README's table,
/// `--list-rules` and SARIF's rule metadata are made from `catalogue`. A check every dialect
/// shares (`SharedCheck`) has the same id suffix in each.
enum CaddyRules {
    static let syntax = RuleDescription(
        "caddy.syntax", .error,
        summary: "a Caddyfile Caddy cannot read, in Caddy's words",
        consequence: "Caddy refuses to start"
    )
    static let directive = RuleDescription(
        "caddy.directive", .error,
        summary: "a directive the Caddy read for does not know, or arguments it refuses (status codes after handle_errors before 2.8)",
        consequence: "Caddy refuses to start"
    )
    static let importFailed = RuleDescription(
        "caddy.import", .error,
        summary: "the Caddyfile cannot be read",
        consequence: "Caddy refuses to start"
    )
    static let missingFile = RuleDescription(
        SharedCheck.missingFile.id("caddy"), .error,
        summary: "a handle_errors route rewrites (or try_files) to a page file that does not exist under its root",
        consequence: "the status with an empty body: Caddy swallows the failure inside handle_errors"
    )
    static let handleErrorsWithoutResponse = RuleDescription(
        "caddy.handle-errors-without-response", .error,
        summary: "a handle_errors route has neither file_server nor respond",
        consequence: "the status with an empty body"
    )
    static let upstreamPassThrough = RuleDescription(
        SharedCheck.upstreamPassThrough.id("caddy"), .warning,
        summary: "reverse_proxy without a handle_response that answers (none, or one that only copy_response's) in a site with error pages",
        consequence: "the application's own 500/503 body (Caddy's own 502 for a dead upstream is still replaced)"
    )
    static let codeNotCovered = RuleDescription(
        SharedCheck.codeNotCovered.id("caddy"), .error,
        summary:
            "a code detour made a page for has no handle_errors route in a site; a 5xx only where the site can raise it (a proxy or handler: any; 'error': the statuses it names)",
        consequence: "Caddy's own response for that code: the status with an empty body"
    )
    static let softStatus = RuleDescription(
        SharedCheck.softStatus.id("caddy"), .error,
        summary: "an error page is sent with a success status",
        consequence: "a 200 for an error: crawlers and monitors see success while the site fails"
    )
    static let errorStatusAsMessage = RuleDescription(
        "caddy.error-status-as-message", .error,
        summary: "error with one placeholder argument, which Caddy reads as the message",
        consequence: "a 500 instead of the upstream's status, and the page for 500"
    )
    static let respondShadowsFileServer = RuleDescription(
        "caddy.respond-shadows-file-server", .error,
        summary:
            "a respond without a matcher stands in the handle_errors route whose file_server sends the page, or in the block the page's own request lands in while the file_server is in one it never reaches",
        consequence: "respond's text instead of the page: respond comes before file_server in Caddy's order"
    )
    static let protected = RuleDescription(
        SharedCheck.protected.id("caddy"), .warning,
        summary: "a handle_errors page sits behind basicauth, forward_auth, a respond 4xx matcher, or a matcher not every visitor meets",
        consequence: "the status with an empty body (or the 4xx) for visitors who do not pass"
    )
    static let proxied = RuleDescription(
        SharedCheck.proxied.id("caddy"), .error,
        summary: "a handle_errors route fetches the page from the site's own upstream",
        consequence: "the status with an empty body when the upstream is down: the page fails with it"
    )

    /// Reading the configuration as the server does first, then the rules, in the order they run.
    static let all: [RuleDescription] = [
        syntax, directive, importFailed, missingFile, handleErrorsWithoutResponse, upstreamPassThrough,
        codeNotCovered, softStatus, errorStatusAsMessage, respondShadowsFileServer, protected, proxied,
    ]
}
