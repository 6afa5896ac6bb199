import DetourDiagnostics
import DetourProxyCore

/// Every rule `detour check nginx` reports, each once: its id, severity and what visitors
/// get when it fires. Findings name their rule by these constants; the README's table,
/// `--list-rules` and SARIF's rule metadata are made from `catalogue`. A check every dialect
/// shares (`SharedCheck`) has the same id suffix in each.
enum NginxRules {
    static let syntax = RuleDescription(
        "nginx.syntax", .error,
        summary: "a syntax error, as nginx words it",
        consequence: "nginx refuses to start"
    )
    static let directive = RuleDescription(
        "nginx.directive", .error,
        summary: "what nginx -t refuses beyond syntax: unknown or misplaced directives, argument counts, on/off values, duplicates, ports, unknown variables",
        consequence: "nginx refuses to start"
    )
    static let includeMissing = RuleDescription(
        "nginx.include-missing", .error,
        summary: "an include names a file that cannot be read",
        consequence: "nginx refuses to start"
    )
    static let includeCycle = RuleDescription(
        "nginx.include-cycle", .error,
        summary: "a file includes itself through a chain of includes",
        consequence: "nginx never finishes reading the configuration"
    )
    static let includeDepth = RuleDescription(
        "nginx.include-depth", .error,
        summary: "includes nest more than 32 deep; the rest is not read",
        consequence: "(detour's limit) what lies deeper is not checked"
    )
    static let includeSize = RuleDescription(
        "nginx.include-size", .error,
        summary: "includes expand past 10 million directives; the rest is not read",
        consequence: "(detour's limit) what lies beyond is not checked"
    )
    static let fileTooLarge = RuleDescription(
        "nginx.file-too-large", .error,
        summary: "a configuration file larger than 2 GiB",
        consequence: "(detour's limit) the file is not checked"
    )
    static let missingFile = RuleDescription(
        SharedCheck.missingFile.id("nginx"), .error,
        summary: "an error_page URI leads to a file that does not exist",
        consequence: "a 404 instead of the error page (with a hint when a file path was written as the URI)"
    )
    static let errorPageUndefinedNamedLocation = RuleDescription(
        "nginx.error-page-undefined-named-location", .error,
        summary: "error_page names an @location the server does not define",
        consequence: "a 500 for `error_page … @name` without that location"
    )
    static let inheritedErrorPageDropped = RuleDescription(
        "nginx.inherited-error-page-dropped", .warning,
        summary: "an error_page in a location replaces every inherited one",
        consequence:
            "nginx's own page: an `error_page` in a location replaces every inherited one (a proxied location that intercepts may drop the 4xx it never raises itself, so the application's own pages pass)"
    )
    static let upstreamPassThrough = RuleDescription(
        SharedCheck.upstreamPassThrough.id("nginx"), .warning,
        summary: "a proxied location has pages for codes the application sends, without *_intercept_errors on",
        consequence: "the application's own 500/503 body, without `proxy_intercept_errors on`"
    )
    static let authServicePage = RuleDescription(
        "nginx.auth-service-page", .error,
        summary:
            "an auth_request service's location intercepts its upstream's errors (*_intercept_errors on, often inherited) under an error_page 401 or 403 that answers with a success (=200, or =)",
        consequence: "every visitor is let in: the service's refusal becomes the sign-in page's 200 inside the subrequest"
    )
    static let interceptedCodeWithoutPage = RuleDescription(
        "nginx.intercepted-code-without-page", .warning,
        summary: "intercepting lets codes through that have no page",
        consequence: "the application's body for codes intercepting lets through without a page"
    )
    static let proxied = RuleDescription(
        SharedCheck.proxied.id("nginx"), .error,
        summary: "an error page's URI falls into a proxied location",
        consequence:
            "a failing page: its URI falls into the proxied location, or its file is missing where the location hands a missing file to the application (`try_files $uri @app`, `if (!-f $request_filename) { proxy_pass … }`)"
    )
    static let returned = RuleDescription(
        "nginx.error-page-returned", .error,
        summary: "an error page's URI falls into a location whose `return` answers it",
        consequence: "the `return`'s text (or redirect) in place of the page"
    )
    static let errorPageNotInternal = RuleDescription(
        "nginx.error-page-not-internal", .note,
        summary: "the pages can be requested directly",
        consequence: "pages reachable directly, answering 200, indexable (their location is not `internal`, or none serves them but the server's root)"
    )
    static let softStatus = RuleDescription(
        SharedCheck.softStatus.id("nginx"), .error,
        summary: "an error_page turns an error into a success status",
        consequence: "a 200 for an error (`=200`, or `=` on a static page); a sign-in page for 401/403 under `auth_request` or `auth_basic` is not one"
    )
    static let protected = RuleDescription(
        SharedCheck.protected.id("nginx"), .error,
        summary: "the pages sit behind deny all, auth_basic or auth_request",
        consequence:
            "a 403/401 from `deny all`, `auth_basic` or `auth_request` on the pages (a password on the whole server that no location lifts is fine for every page but its own 401: whoever meets another error has given it)"
    )
    static let addHeaderWithoutAlways = RuleDescription(
        "nginx.add-header-without-always", .note,
        summary: "add_header without always, where error pages are served",
        consequence: "headers missing from error responses"
    )
    static let codeNotCovered = RuleDescription(
        SharedCheck.codeNotCovered.id("nginx"), .error,
        summary: "a code detour made a page for has no error_page in a server",
        consequence:
            "nginx's default page for a code detour made a page for (pages in `location /` count when every other location visitors reach has them too; 5xx codes only where something can fail: an upstream, `limit_req`/`limit_conn`, `auth_request`, a `return` of one, a module's handler)"
    )
    static let errorPageDynamicTarget = RuleDescription(
        "nginx.error-page-dynamic-target", .note,
        summary: "an error_page target built from variables detour cannot follow",
        consequence: "a target built from variables other than `$status` and literal `map` values, not checkable statically"
    )
    static let errorPageServerRewrite = RuleDescription(
        "nginx.error-page-server-rewrite", .warning,
        summary: "a server-level return, rewrite or if catches the redirect to an error page",
        consequence:
            "nginx's default page, or a redirect: a server-level `return`, `rewrite` or `if` runs again for the redirect to the page and catches it (`$request_uri` still holds the visitor's URI; `$uri` is the page's)"
    )

    /// Reading the configuration as the server does first, then the rules, in the order they run.
    static let all: [RuleDescription] = [
        syntax, directive, includeMissing, includeCycle, includeDepth, includeSize, fileTooLarge, missingFile,
        errorPageUndefinedNamedLocation, inheritedErrorPageDropped, upstreamPassThrough, authServicePage,
        interceptedCodeWithoutPage, proxied, returned, errorPageNotInternal, softStatus, protected,
        addHeaderWithoutAlways, codeNotCovered, errorPageDynamicTarget, errorPageServerRewrite,
    ]
}
