import DetourDiagnostics

/// 12. A target built from variables: which file answers is only known per request.
struct DynamicTargetRule: NginxRule {
    static let about = NginxRules.errorPageDynamicTarget

    func check(_ server: NginxServer, _ facts: NginxServerFacts, in context: NginxCheckContext) -> [Diagnostic] {
        eachPage(of: server, facts) { _, page, _ in
            guard page.hasVariables else { return nil }
            return Diagnostic(
                .note, Self.id,
                "error page '\(page.target)' is built from variables: which file answers \(Self.codes(page.codes)) cannot be checked before a request comes",
                at: page.targetLocation,
                notes: [
                    Self.fix("name one page per status, as detour's snippet does")
                ])
        }
    }
}
