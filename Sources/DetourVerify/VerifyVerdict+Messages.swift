import DetourProxyCore

/// What each finding of `VerifyVerdict` says, in words, from the probes that show it.
extension VerifyVerdict {
    static func message(_ group: Group) -> String {
        let statuses = Set(group.observations.map(\.status)).sorted().map(String.init).joined(separator: ", ")
        let bodies = Set(group.observations.map(\.body.description)).sorted().joined(separator: " or ")
        let path = group.observations.map(\.path).first ?? ""
        switch group.kind {
        case .reachable where group.observations.allSatisfy({ (200..<300).contains($0.status) }):
            return "visitors can ask for the error page itself: \(path) answers \(statuses) with \(bodies)"
        case .reachable:
            return "visitors can ask for the error page itself: its location is not internal (\(path) answers \(statuses) now)"
        case .intercepted:
            return
                "errors are intercepted here, but the upstream's own \(statuses) \(statuses.contains(",") ? "have" : "has") no page and \(statuses.contains(",") ? "reach" : "reaches") visitors as it wrote it"
        case .redirect:
            return "the upstream's failure is answered with a redirect (\(statuses)), not with its error: crawlers and monitors see a move"
        case .statusLine:
            return "the page is a whole response whose status line says \(statuses): visitors get \(statuses) with it, not the error"
        case .returned:
            return "the error page is not a file: asked for, \(path) answers \(statuses) with \(bodies), and so do visitors who meet the error"
        case .dropped:
            return "the page this location inherits is dropped by its own error_page: \(path) answers \(statuses) with \(bodies)"
        case .rerun:
            return
                "this answers \(statuses) and runs again for the error page's own request, which it refuses too: \(path) answers \(statuses) with \(bodies)"
        case .raisedPageMissing:
            let code = path.split(separator: "-").last ?? ""
            return "the error page is not there: visitors who meet the server's own \(code) get a 404 instead (\(path) answers it, raised in the sandbox)"
        case .header(_, let name):
            return "\(name) is missing from the error answers (\(statuses)): it is added to the site's successful answers only"
        case .shared:
            break
        }
        guard case .shared(let check) = group.kind else { return "" }
        switch check {
        case .codeNotCovered: return "visitors get \(statuses) with \(bodies), not detour's page: the server answers no probe with one"
        case .upstreamPassThrough: return "the upstream's own \(statuses) \(statuses.contains(",") ? "reach" : "reaches") visitors as it wrote it"
        case .missingFile:
            let asked = group.observations.contains { $0.mode == .answers }
            if asked, group.observations.contains(where: { $0.body == .upstream }) {
                return "the error page is not there: its file is missing, and asked for, \(path) is answered by the upstream"
            }
            if !asked, group.observations.allSatisfy({ $0.status != 404 && $0.body.holdsNothing }) {
                let body = group.observations.first.map { "\($0.body)" } ?? "an empty body"
                return "visitors get \(statuses) with \(body): the error page's file it reads is not there"
            }
            return asked
                ? "the error page is not there: asked for, its URI answers 404"
                : "visitors get a 404 where the upstream failed: the error page's file is not found"
        case .softStatus:
            let upstreamFailed = group.observations.contains { $0.mode != .answers && $0.body == .site }
            return upstreamFailed
                ? "the upstream's failure goes out as a success: visitors get \(statuses) with \(bodies)"
                : "detour's error page goes out with status \(statuses)"
        case .proxied: return "the error page is the upstream's: asked for, \(group.observations.map(\.path).first ?? "its URI") is answered by the upstream"
        case .protected:
            if group.observations.allSatisfy({ $0.mode != .answers }) {
                return "the error page is behind an access rule: visitors who meet the upstream's failure at \(path) get \(statuses) instead"
            }
            if path.contains("/detour-raise-") {
                return "the error page is behind the access rule that raised its code: \(path), raised in the sandbox, answers \(statuses) without the page"
            }
            return "the error page is behind an access rule: asked for, \(path) answers \(statuses)"
        }
    }
}
