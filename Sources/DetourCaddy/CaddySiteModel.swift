import DetourDiagnostics
import DetourProxyCore

/// What a neutral route of a Caddy site stands for.
enum CaddyPageOrigin: Sendable {
    /// A `handle_errors` route: answers the errors Caddy raises.
    case errors(CaddyErrorRoute)
    /// A `handle_response` block of a proxy: answers the upstream's own responses.
    case upstreamResponse
}

extension CaddySite {
    /// The site in neutral terms: each `handle_errors` route with the files it sends, whether
    /// it fetches the page from the site's own upstream, what stands before it and the success
    /// statuses it answers with; each `handle_response` with its success statuses; and per
    /// code what answers it. `pageFiles`: per error route, per code it answers, the files it sends.
    func neutralModel(in context: CaddyCheckContext, pageFiles: [[Int: [PageFile]]]) -> ErrorPageSite<CaddyPageOrigin> {
        let upstreams = Set(proxies.flatMap { Self.upstreams(of: $0.line) })
        var routes: [ErrorPageRoute<CaddyPageOrigin>] = zip(errorRoutes, pageFiles).map { route, files in
            // A route that writes no body answers nothing (caddy.handle-errors-without-response).
            var neutral = ErrorPageRoute(
                origin: CaddyPageOrigin.errors(route), codes: route.writesBody ? context.pageCodes.filter { context.answers(route, $0) } : [])
            neutral.files = files.sorted { $0.key < $1.key }.flatMap { code, files in files.map { ([code], $0) } }
            if route.writesBody {
                let uris = neutral.files.map(\.file.uri)
                neutral.guards = route.guards.filter { Self.guardApplies($0, to: uris) }.map { .init(at: context.location(of: $0[0])) }
                if let condition = route.condition { neutral.guards.append(.init(at: context.location(of: condition.matcher), selectsRequests: true)) }
            }
            if let proxy = route.proxy, !upstreams.isDisjoint(with: Self.upstreams(of: proxy)) {
                neutral.upstream = context.placeOfUse(of: proxy[0], in: route.block)
            }
            neutral.successStatuses = route.responds.compactMap { Self.successfulRespond($0, in: context) }
            return neutral
        }
        for handler in responseHandlers {
            var statuses: [ErrorPageRoute<CaddyPageOrigin>.SuccessStatus] = []
            for line in handler {
                // file_server sends the file with 200 unless told the upstream's status.
                if line.first?.text == "file_server", !line.contains(where: { $0.text == "status" && !$0.isQuoted }) {
                    statuses.append(.init(status: 200, construct: "file_server", at: context.location(of: line[0])))
                }
                if let respond = Self.successfulRespond(line, in: context) { statuses.append(respond) }
            }
            if !statuses.isEmpty { routes.append(ErrorPageRoute(origin: .upstreamResponse, codes: [], successStatuses: statuses)) }
        }
        return ErrorPageSite(coverage: coverage(in: context, upstreams: upstreams, pageFiles: pageFiles), routes: routes)
    }

    /// A guard with a path matcher only stands before pages whose path it matches.
    private static func guardApplies(_ line: [CaddyToken], to uris: [String]) -> Bool {
        guard line.count > 1, line[1].text.hasPrefix("/"), !uris.isEmpty else { return true }
        let pattern = line[1].text
        return uris.contains { pattern.hasSuffix("*") ? $0.hasPrefix(pattern.dropLast()) : $0 == pattern }
    }

    /// `respond … 2xx`: the status, where it is written.
    private static func successfulRespond(_ line: [CaddyToken], in context: CaddyCheckContext) -> ErrorPageRoute<CaddyPageOrigin>.SuccessStatus? {
        guard line.first?.text == "respond", line.count >= 2, let last = line.last, !last.isQuoted, let status = Int(last.text), (200...299).contains(status)
        else { return nil }
        return .init(status: status, construct: "respond", at: context.location(of: last))
    }

    /// The upstream addresses a `reverse_proxy`/`php_fastcgi` line names, without a scheme.
    static func upstreams(of line: [CaddyToken]) -> [String] {
        var arguments = line.dropFirst().prefix { !($0.text == "{" && !$0.isQuoted) }
        if let first = arguments.first, CaddyErrorRoute.isMatcher(first) { arguments = arguments.dropFirst() }
        return arguments.map { token in
            var address = Substring(token.text)
            for scheme in ["http://", "https://", "h2c://"] where address.hasPrefix(scheme) { address = address.dropFirst(scheme.count) }
            return String(address)
        }
    }

    /// Per code, the file the first route answering it sends (`(missing)` when it is not
    /// there), `respond`, the proxy, or nil.
    private func coverage(in context: CaddyCheckContext, upstreams: Set<String>, pageFiles: [[Int: [PageFile]]]) -> SiteCoverage {
        // Worked out once for the site, not once per code.
        let everyRequest = answerForEveryRequest
        let answers = context.pageCodes.map { code -> (code: Int, answer: String?) in
            for (index, route) in errorRoutes.enumerated() where context.answers(route, code) && route.writesBody {
                // A respond without a matcher ends the route before file_server.
                if let respond = route.respond ?? (route.fileServer == nil && route.proxy == nil ? route.responds.first : nil) {
                    return (code, "respond (\(context.location(of: respond[0]).description))")
                }
                if let proxy = route.proxy, route.fileServer == nil {
                    let addresses = Self.upstreams(of: proxy)
                    return (code, "\(addresses.joined(separator: " ")) via \(proxy[0].text)\(upstreams.isDisjoint(with: addresses) ? "" : " (the upstream)")")
                }
                let files = pageFiles[index][code] ?? []
                guard let file = files.first else { return (code, "handle_errors (a path known only at request time)") }
                let shown = files.count > 1 ? "\(file.localPath) and \(files.count - 1) more" : file.localPath
                return (code, files.allSatisfy(\.exists) ? shown : shown + " (missing)")
            }
            if let answer = everyRequest {
                return (code, "not needed: every request meets '\(answer.text)' at \(context.location(of: answer).description)")
            }
            return (code, code < 500 || mayRaise(code) ? nil : "not needed: nothing here answers \(code)")
        }
        let start = block.start.map { context.location(of: $0) } ?? SourceLocation(path: context.files[0], line: 1, column: 1)
        return SiteCoverage(name: name.isEmpty ? "site" : name, location: start, answers: answers)
    }
}
