extension VerifyServer {
    /// The checks every dialect's verify reports from what visitors got.
    private static let sharedChecks = [
        "code-not-covered", "error-page-missing-file", "upstream-errors-pass-through", "error-page-proxied", "error-page-protected",
        "error-page-soft-status",
    ]

    /// The checks of one dialect's verify beside the shared ones: its verdicts, its log
    /// readings and its server's own test (`VerifyVerdict`, `VerifyLogFindings`, `VerifyTest`).
    private static let ownChecks = [
        "nginx": [
            "syntax", "directive", "include-missing", "error-page-not-internal", "intercepted-code-without-page", "add-header-without-always",
            "error-page-undefined-named-location", "error-page-returned", "inherited-error-page-dropped", "error-page-server-rewrite",
        ],
        "caddy": ["syntax", "directive", "import", "handle-errors-redirect"],
        "haproxy": ["syntax", "directive", "errorfile-code", "errorfile-invalid", "errorloc-redirect", "errorfile-status-line"],
        "apache": ["syntax", "error-document-url"],
        "varnish": ["syntax"],
    ]

    /// The checks a server's refusal of the configuration is reported as: one class when
    /// compared with `detour check` (the server names the line; the rule is detour's reading of its words).
    /// HAProxy refuses a page file it cannot open while it reads the file, so a missing one is
    /// a refusal there.
    private static let refusalChecks = [
        "nginx": ["syntax", "directive", "include-missing", "include-cycle", "include-depth", "include-size"],
        "caddy": ["syntax", "directive", "import"],
        "haproxy": ["syntax", "directive", "errorfile-code", "errorfile-invalid", "error-page-missing-file"],
        "apache": ["syntax"],
        "varnish": ["syntax"],
    ]

    /// The rules this server's verify can observe, and so judge `detour check`'s findings of.
    public var observedRules: Set<String> { Set((Self.sharedChecks + (Self.ownChecks[name] ?? [])).map { name + "." + $0 }) }

    /// The rules its refusal of a configuration is reported as.
    public var refusalRules: Set<String> { Set((Self.refusalChecks[name] ?? []).map { name + "." + $0 }) }
}
