import DetourDiagnostics
import DetourProxyCore

/// Every rule `detour check apache` reports, each once: its id, severity and what visitors
/// get when it fires. Findings name their rule by these constants; the README's table,
/// `--list-rules` and SARIF's rule metadata are made from `catalogue`. A check every dialect
/// shares (`SharedCheck`) has the same id suffix in each.
enum ApacheRules {
    static let syntax = RuleDescription(
        "apache.syntax", .error,
        summary:
            "a configuration Apache cannot read: a section not closed or closed by another, an Include that names nothing, a directive no loaded module adds, an Options or AllowOverride word it does not take, an ErrorDocument without two arguments or for a code outside 4xx/5xx",
        consequence: "Apache refuses to start"
    )
    static let sectionDepth = RuleDescription(
        "apache.section-depth", .error,
        summary: "sections nested more than 100 deep",
        consequence: "(detour's limit) what lies deeper is not checked"
    )
    static let missingFile = RuleDescription(
        SharedCheck.missingFile.id("apache"), .error,
        summary: "an ErrorDocument's local path leads, through Alias or DocumentRoot, to no file (apache2 -t passes it)",
        consequence: "Apache's built-in page, adding that 'a 503 Service Unavailable error was encountered while trying to use an ErrorDocument'"
    )
    static let errorDocumentUrl = RuleDescription(
        "apache.error-document-url", .error,
        summary: "an ErrorDocument that is a full URL (for any code but 401)",
        consequence: "a 302 redirect instead of the error: crawlers and monitors see a move, not a failure"
    )
    static let errorDocumentText = RuleDescription(
        "apache.error-document-text", .error,
        summary: "an ErrorDocument target that is neither a local path (/…) nor a URL",
        consequence: "the target's words as the whole page (a path without its leading / shows as text)"
    )
    static let proxied = RuleDescription(
        SharedCheck.proxied.id("apache"), .error,
        summary:
            "an ErrorDocument path that goes to the upstream: a ProxyPass with no 'ProxyPass <path> !' before it, a ProxyPass in <Location> (tried before every line outside one), or a [P] RewriteRule (which no 'ProxyPass … !' stops)",
        consequence: "Apache's built-in page when the upstream is down: the page is fetched from the failing upstream"
    )
    static let upstreamPassThrough = RuleDescription(
        SharedCheck.upstreamPassThrough.id("apache"), .warning,
        summary:
            "a site that proxies (ProxyPass, ProxyPassMatch, a 'proxy:' handler, a [P] RewriteRule) without 'ProxyErrorOverride On' (or with a status list that leaves out codes detour has pages for)",
        consequence: "the application's own 500/503 body, not the branded page"
    )
    static let codeNotCovered = RuleDescription(
        SharedCheck.codeNotCovered.id("apache"), .error,
        summary:
            "a site (virtual host, or the main server without any) with no ErrorDocument for a code detour made a page for, at its top, in <If>, or in a <Location> over every path that can fail; 5xx only where it proxies, those Apache raises there: 500, 502, 503, 504 for FastCGI or AJP, and the upstream's own under ProxyErrorOverride (one in <Directory> never answers a proxied request)",
        consequence: "Apache's built-in page, unbranded, in English (503 'Service Unavailable' for a dead upstream)"
    )
    static let protected = RuleDescription(
        SharedCheck.protected.id("apache"), .error,
        summary: "an ErrorDocument page in a <Location> or <Directory> whose Require or authentication keeps visitors out",
        consequence: "Apache's built-in page, adding that another error was encountered while trying to use an ErrorDocument"
    )

    /// Reading the configuration as the server does first, then the rules, in the order they run.
    static let all: [RuleDescription] = [
        syntax, sectionDepth, missingFile, errorDocumentUrl, errorDocumentText, proxied, upstreamPassThrough,
        codeNotCovered, protected,
    ]
}
