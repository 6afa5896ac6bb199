import DetourDiagnostics
import DetourProxyCore
import DetourSupport

/// Every rule `detour check haproxy` reports, each once: its id, severity and what visitors
/// get when it fires. Findings name their rule by these constants; the README's table,
/// `--list-rules` and SARIF's rule metadata are made from `catalogue`. A check every dialect
/// shares (`SharedCheck`) has the same id suffix in each.
enum HAProxyRules {
    static let syntax = RuleDescription(
        "haproxy.syntax", .error,
        summary:
            "a configuration HAProxy cannot read: an unmatched quote, no final line feed, a line out of any section, an unclosed .if, an unknown defaults or http-errors name, an ACL or sample expression HAProxy cannot parse (an unknown fetch or converter, wrong arguments, a missing bracket), a proxy, ACL or server name with a character other than letters, digits and . : _ -, a server speaking TLS with no CA file to check its certificate against",
        consequence: "HAProxy refuses to start"
    )
    static let directive = RuleDescription(
        "haproxy.directive", .error,
        summary:
            "a keyword (or option) its section does not take in the HAProxy read for, or one HAProxy no longer supports (reqadd, redispatch, option http-tunnel…), in HAProxy's words",
        consequence: "HAProxy refuses to start"
    )
    static let errorfileCode = RuleDescription(
        "haproxy.errorfile-code", .error,
        summary: "errorfile or http-error for a status they cannot customise (only \(HAProxyFacts.errorfileStatusesShown))",
        consequence: "HAProxy refuses to start ('status code not handled')"
    )
    static let missingFile = RuleDescription(
        SharedCheck.missingFile.id("haproxy"), .error,
        summary: "an errorfile, http-error or return rule names a file that does not exist",
        consequence: "no site at all: HAProxy refuses to start ('error opening file'), and haproxy -c says so"
    )
    static let errorfileInvalid = RuleDescription(
        "haproxy.errorfile-invalid", .error,
        summary: "an errorfile that is empty, not a full HTTP response, has a wrong Content-Length or is larger than tune.bufsize",
        consequence: "empty: the connection closes with no response at all (haproxy -c passes it); the others: HAProxy refuses to start"
    )
    static let errorfileStatusLine = RuleDescription(
        "haproxy.errorfile-status-line", .error,
        summary: "an errorfile whose status line names another code than the one it is for (haproxy -c passes it)",
        consequence: "the file's status instead: a 200 for an outage, a page crawlers index and monitors count as up"
    )
    static let errorfileOversized = RuleDescription(
        "haproxy.errorfile-oversized", .warning,
        summary: "an errorfile larger than tune.bufsize − tune.maxrewrite (15360 bytes by default)",
        consequence: "HAProxy's own 500 instead of the page once an http-after-response rule adds headers that do not fit; only a real start warns"
    )
    static let codeNotCovered = RuleDescription(
        SharedCheck.codeNotCovered.id("haproxy"), .error,
        summary:
            "a frontend or listen section, with the backends it routes to, has no page for a code detour made one for (503 when no server is up, 504 on a timeout)",
        consequence: "HAProxy's built-in page, unbranded, in English"
    )
    static let replacedPage = RuleDescription(
        "haproxy.error-page-replaced", .error,
        summary:
            "an errorfile, errorfiles or http-error line in a frontend or backend replaces detour's page from its defaults with another file, where it answers (a frontend's wherever its backend has no page of its own)",
        consequence: "the other page (HAProxy's stock file, an older page) with the status, not the branded one"
    )
    static let upstreamPassThrough = RuleDescription(
        SharedCheck.upstreamPassThrough.id("haproxy"), .warning,
        summary: "a backend with servers has no 'http-response return … if { status N }' for the 5xx its application sends",
        consequence: "the application's own error page or stack trace, not the branded page"
    )
    static let errorlocRedirect = RuleDescription(
        "haproxy.errorloc-redirect", .error,
        summary: "errorloc, errorloc302 or errorloc303 answers an error with a redirect to the page (haproxy -c passes it)",
        consequence: "a 302/303 instead of the error: crawlers and monitors see a move; a page path that reaches the failing backend redirects to itself"
    )
    static let protected = RuleDescription(
        SharedCheck.protected.id("haproxy"), .error,
        summary:
            "an http-request deny, auth or tarpit rule in a frontend, or in the backend the page is routed to, applies to a page its visitors are redirected to, and the page's path is what brings it into play",
        consequence: "a 401 or 403 (500 for tarpit) instead of the page, after the redirect"
    )
    static let redirectLoop = RuleDescription(
        "haproxy.redirect-loop", .error,
        summary: "an http-request redirect sends visitors to a page whose own request it redirects again (its condition does not leave the page out)",
        consequence: "the browser's 'too many redirects' instead of the page, while the condition holds"
    )

    /// Reading the configuration as the server does first, then the rules, in the order they run.
    static let all: [RuleDescription] = [
        syntax, directive, errorfileCode, missingFile, errorfileInvalid, errorfileStatusLine, errorfileOversized,
        codeNotCovered, replacedPage, upstreamPassThrough, errorlocRedirect, protected, redirectLoop,
    ]
}
