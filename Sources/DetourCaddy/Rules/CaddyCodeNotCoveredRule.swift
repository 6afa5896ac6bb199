import DetourDiagnostics
import DetourProxyCore

/// A code detour made a page for that no `handle_errors` route of a site answers.
struct CaddyCodeNotCoveredRule: CaddyRule {
    static let about = CaddyRules.codeNotCovered

    func check(_ site: CaddySite, in context: CaddyCheckContext) -> [Diagnostic] {
        let missing = ErrorPageChecks.uncoveredCodes(site.model, pageCodes: context.pageCodes)
        guard !missing.isEmpty, let start = site.block.start else { return [] }
        let place =
            site.errorBlocks.isEmpty
            ? "no handle_errors in site '\(site.name)'" : "no handle_errors route for \(missing.count == 1 ? "it" : "them") in site '\(site.name)'"
        return [
            Self.finding(
                "\(Self.codes(missing)) \(missing.count == 1 ? "has" : "have") a generated page but \(place): visitors get the status with an empty body",
                at: context.location(of: start),
                notes: [
                    Self.fix("import detour's Caddy snippet (public/snippets/caddy.caddyfile) and 'import detour_pages' in this site")
                ], codes: missing)
        ]
    }
}
