import DetourDiagnostics

/// The checks every server shares, decided on the neutral model. Each gives the facts of its
/// findings; the dialect's rule words them in its server's terms, with its own rule id.
public enum ErrorPageChecks {
    /// Routes that send a file that is not there, with the codes and the (distinct) files.
    public static func missingFiles<Origin>(_ site: ErrorPageSite<Origin>) -> [(route: ErrorPageRoute<Origin>, codes: [Int], files: [PageFile])] {
        site.routes.compactMap { route in
            var codes: [Int] = [], files: [PageFile] = []
            for (code, file) in route.files where !file.exists {
                if !codes.contains(code) { codes.append(code) }
                if !files.contains(file) { files.append(file) }
            }
            return codes.isEmpty ? nil : (route, codes, files)
        }
    }

    /// Codes detour made a page for (`pageCodes`) that nothing in the site answers.
    public static func uncoveredCodes<Origin>(_ site: ErrorPageSite<Origin>, pageCodes: [Int]) -> [Int] {
        site.coverage.answers.filter { $0.answer == nil && pageCodes.contains($0.code) }.map(\.code)
    }

    /// Routes whose page is fetched from the upstream: when it is down, the page fails too.
    public static func proxiedPages<Origin>(_ site: ErrorPageSite<Origin>) -> [(route: ErrorPageRoute<Origin>, upstream: SourceLocation)] {
        site.routes.compactMap { route in
            guard let upstream = route.upstream, !route.isSignIn else { return nil }
            return (route, upstream)
        }
    }

    /// Error pages sent with a success status: crawlers and monitors see the site working.
    public static func softStatuses<Origin>(_ site: ErrorPageSite<Origin>) -> [(route: ErrorPageRoute<Origin>, status: ErrorPageRoute<Origin>.SuccessStatus)] {
        site.routes.flatMap { route -> [(ErrorPageRoute<Origin>, ErrorPageRoute<Origin>.SuccessStatus)] in
            guard !route.isSignIn else { return [] }
            return route.successStatuses.filter { $0.status < 400 }.map { (route, $0) }
        }
    }
}
