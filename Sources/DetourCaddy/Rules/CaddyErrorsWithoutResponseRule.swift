import DetourDiagnostics

/// A `handle_errors` route with no `file_server`, `respond` or proxy: nothing writes a body.
struct CaddyErrorsWithoutResponseRule: CaddyRule {
    static let about = CaddyRules.handleErrorsWithoutResponse

    func check(_ site: CaddySite, in context: CaddyCheckContext) -> [Diagnostic] {
        site.errorRoutes.filter { !$0.writesBody }.map { route in
            Self.finding(
                "this handle_errors has no file_server or respond: visitors get the error's status with an empty body",
                at: context.location(of: route.block),
                notes: [
                    Self.fix(
                        "add 'root * /usr/share/detour/errors', 'rewrite * /{err.status_code}.html' and 'file_server', or import detour's detour_pages snippet")
                ])
        }
    }
}
