import DetourDiagnostics

extension NginxChecker {
    /// Every rule `detour check nginx` reports: reading the configuration as nginx does, then
    /// the error-page rules. The README's table, `--list-rules` and SARIF's rule metadata
    /// are made from it.
    public static let catalogue: [RuleDescription] = [
        RuleDescription("nginx.syntax", .error, summary: "a syntax error, as nginx words it",
                        consequence: "nginx refuses to start"),
        RuleDescription("nginx.directive", .error, summary: "what nginx -t refuses beyond syntax: unknown or misplaced directives, argument counts, on/off values, duplicates, ports, unknown variables",
                        consequence: "nginx refuses to start"),
        RuleDescription("nginx.include-missing", .error, summary: "an include names a file that cannot be read",
                        consequence: "nginx refuses to start"),
        RuleDescription("nginx.include-cycle", .error, summary: "a file includes itself through a chain of includes",
                        consequence: "nginx never finishes reading the configuration"),
        RuleDescription("nginx.include-depth", .error, summary: "includes nest more than 32 deep; the rest is not read",
                        consequence: "(detour's limit) what lies deeper is not checked"),
        RuleDescription("nginx.include-size", .error, summary: "includes expand past 10 million directives; the rest is not read",
                        consequence: "(detour's limit) what lies beyond is not checked"),
        RuleDescription("nginx.file-too-large", .error, summary: "a configuration file larger than 2 GiB",
                        consequence: "(detour's limit) the file is not checked"),
    ] + rules.map { type(of: $0).about }
}
