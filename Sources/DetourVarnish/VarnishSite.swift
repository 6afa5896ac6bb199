import DetourDiagnostics
import DetourProxyCore

/// The whole VCL as one site: every way Varnish answers with an error (a dead backend, the
/// backend's own 5xx, an `error` or `synth` the VCL returns), followed through
/// `vcl_backend_error` and `vcl_synth` to the body and status visitors get, as the neutral
/// model the shared checks read; and the backend's own 5xx that reach visitors or the cache.
struct VarnishSite: Sendable {
    /// A page route's record, for the words of findings.
    struct Route: Sendable {
        var response: VarnishResponse
        /// Where `std.fileread` reads the page.
        var readAt: SourceLocation
    }

    /// A backend's own error that vcl_backend_response delivers as it is.
    struct Passed: Sendable {
        var code: Int
        var path: VCLPath
    }

    let model: ErrorPageSite<Route>
    let responses: [VarnishResponse]
    /// Each page path's values, for what a `std.fileread` reads.
    let values: VCLStringValues
    let passed: [Passed]
    /// Where vcl_recv pipes every request it does not answer itself: the backend's answers,
    /// errors included, go to visitors as they are, and a dead backend's connection just closes.
    let pipedAt: SourceLocation?
    /// Where vcl_recv pipes some of a visitor's page requests (a GET, POST or HEAD without
    /// `Upgrade`) and fetches others: the backend's answers there go to visitors as they are.
    let pipes: [SourceLocation]
    /// Where the site starts, for findings about all of it.
    let location: SourceLocation
    /// Where the VCL itself first defines each subroutine.
    private let definitions: [String: SourceLocation]

    func firstDefinition(of subroutine: String) -> SourceLocation? { definitions[subroutine] }

    /// - Parameter firstTryOnly: the fetch cannot be tried again (a form whose body went to the
    ///   backend and was not kept: varnishd's `return (retry)` then fails the fetch, "Retry not
    ///   possible, req.body not cached"): only its first try runs, with `bereq.retries` 0.
    init(_ config: VCLConfig, display: String, in context: VarnishCheckContext, firstTryOnly: Bool = false) {
        let program = config.program
        location = program.version?.location ?? SourceLocation(path: display)
        definitions = program.subroutines.filter { !$0.isBuiltin }.reduce(into: [:]) { $0[$1.name.text] = $0[$1.name.text] ?? $1.name.location }
        let tries = firstTryOnly ? ["bereq.retries": 0] : [:]
        let backendSide = VCLFlow(program: program, object: "beresp", facts: ["bereq.is_bgfetch": false], numbers: tries)
        // The backend's own error page is the application's, not a page of detour's proxy snippets.
        let backendOwn = VCLFlow(
            program: program, object: "beresp", facts: ["bereq.is_bgfetch": false, "beresp.http.X-Detour-Page": false], numbers: tries)
        let clientSide = VCLFlow(program: program, object: "resp", facts: [:])

        func synth(_ code: Int, _ cause: VarnishResponse.Cause, _ trigger: VarnishResponse.Trigger) -> [VarnishResponse] {
            clientSide.paths(method: "vcl_synth", status: code).map {
                VarnishResponse(code: code, cause: cause, trigger: trigger, method: "vcl_synth", path: $0)
            }
        }
        func backendError(_ code: Int, _ cause: VarnishResponse.Cause, _ trigger: VarnishResponse.Trigger) -> [VarnishResponse] {
            backendSide.paths(method: "vcl_backend_error", status: code).flatMap { path -> [VarnishResponse] in
                switch path.action {
                case "deliver": return [VarnishResponse(code: code, cause: cause, trigger: trigger, method: "vcl_backend_error", path: path)]
                case "abandon", "fail", "retry": return synth(503, .abandonedFetch(at: path.returnAt), trigger)
                default: return []
                }
            }
        }

        var responses: [VarnishResponse] = []
        for (code, at) in Self.literalReturns("synth", from: Self.clientMethods, in: VCLFlow(program: program, object: "resp")) {
            responses += synth(code, .synth(at: at), .synth(code))
        }
        var passed: [Passed] = []
        // A VCL whose vcl_recv answers every request itself (a synth, a pipe) never fetches: no
        // backend's failure reaches its error paths.
        let recv = VCLFlow(program: program, object: "resp").paths(method: "vcl_recv", status: nil)
        let fetches = Self.fetches(recv)
        pipedAt = fetches ? nil : recv.lazy.filter { $0.action == "pipe" }.compactMap(\.returnAt).first
        var pipes: [SourceLocation] = []
        // The methods of a visitor's page requests (the built-in VCL pipes any other).
        for method in SandboxPlan.probedMethods where fetches {
            for at in Self.pipes(program, method: method) where !pipes.contains(at) { pipes.append(at) }
        }
        self.pipes = pipes
        if fetches {
            responses += backendError(503, .deadBackend, .deadBackend) + synth(503, .brokenOff, .brokenOff)
            // The returns the backend's own statuses take to vcl_backend_error: a literal
            // `return (error(N))` among them is the way of that status, not another.
            var statusReturns: Set<SourceLocation> = []
            for code in context.pageCodes where code >= 500 {
                for path in backendOwn.paths(method: "vcl_backend_response", status: code) {
                    switch path.action {
                    case "error":
                        let status = path.arguments.first.flatMap { $0.count == 1 ? Int($0[0].text) ?? ($0[0].isName("beresp.status") ? code : nil) : nil }
                        responses += backendError(status ?? 503, .backendStatus(code), .backendStatus(code))
                        if let at = path.returnAt { statusReturns.insert(at) }
                    case "abandon", "fail", "retry": responses += synth(503, .abandonedFetch(at: path.returnAt), .backendStatus(code))
                    case "deliver", "pass": passed.append(Passed(code: code, path: path))
                    default: break
                    }
                }
            }
            for (code, at) in Self.literalReturns("error", from: Self.backendMethods, in: backendSide) where !statusReturns.contains(at) {
                responses += backendError(code, .backendError(at: at), .error(code))
            }
        }
        responses = Self.settled(responses)
        self.responses = responses
        self.passed = passed

        let values = VCLStringValues(program)
        self.values = values
        let routes = responses.compactMap { response -> ErrorPageRoute<Route>? in
            guard case .file(let tokens, let readStatus, let at)? = response.path.body, response.path.action == "deliver" else { return nil }
            let variable = response.method == "vcl_synth" ? "resp.status" : "beresp.status"
            let paths = values.values(tokens, statusVariable: variable, status: readStatus ?? response.code) ?? []
            let files = paths.map { context.pageFiles.file($0, uri: $0) }
            let soft =
                response.status < 400
                ? [ErrorPageRoute<Route>.SuccessStatus(status: response.status, construct: "set status", at: response.path.statusSetAt ?? at)] : []
            return ErrorPageRoute(
                origin: Route(response: response, readAt: at), codes: [response.code], files: files.map { ([response.code], $0) }, successStatuses: soft)
        }
        let answers = Self.answers(responses, routes: routes, codes: context.pageCodes)
        model = ErrorPageSite(coverage: SiteCoverage(name: display, location: location, answers: answers), routes: routes)
    }

    /// Whether the VCL keeps request bodies (`std.cache_req_body`, anywhere it writes it), so
    /// varnishd can send a form's body again on a retry.
    static func keepsRequestBodies(_ program: VCLProgram) -> Bool {
        var keeps = false
        for subroutine in program.subroutines where !subroutine.isBuiltin {
            subroutine.body.forEachStatement { statement in
                switch statement {
                case .other(let tokens): keeps = keeps || tokens.contains { $0.isName("std.cache_req_body") }
                case .branch(let arms, _): keeps = keeps || arms.contains { $0.condition.contains { $0.isName("std.cache_req_body") } }
                default: break
                }
            }
        }
        return keeps
    }

    /// Per code detour has a page for and Varnish raises, what answers it: the page file (the
    /// first the path can name), the path as written where its parts can be anything, text of
    /// the VCL's own, or the return that sends no page; nil when a way that does not depend on
    /// the request ends in Varnish's own page or an empty body.
    private static func answers(_ responses: [VarnishResponse], routes: [ErrorPageRoute<Route>], codes: [Int]) -> [(code: Int, answer: String?)] {
        let raised = Set(responses.map(\.code))
        return codes.filter(raised.contains).map { code in
            let mine = responses.filter { $0.code == code }
            if mine.contains(where: { $0.isBuiltinOrEmpty && !$0.path.dependsOnRequest }) { return (code, nil) }
            if let file = routes.first(where: { $0.codes.contains(code) && !$0.files.isEmpty })?.files.first?.file { return (code, file.installPath) }
            guard let response = mine.first(where: { !$0.isBuiltinOrEmpty }) else { return (code, nil) }
            switch (response.path.action, response.path.body) {
            case ("deliver", .file(let tokens, _, _)?): return (code, "std.fileread(" + tokens.map(\.written).joined(separator: " ") + ")")
            case ("deliver", .text(let at)?): return (code, "text written at \(at.description)")
            default: return (code, "return (\(response.path.action ?? "")) in \(response.method)")
            }
        }
    }

    /// The ways of one cause that chose by the request (a CORS header set for some origins) but
    /// end in Varnish's own page or none whichever they took: what visitors get does not
    /// depend on the request.
    private static func settled(_ responses: [VarnishResponse]) -> [VarnishResponse] {
        responses.map { response in
            guard response.path.dependsOnRequest, response.isBuiltinOrEmpty else { return response }
            let alike = responses.filter { $0.cause == response.cause && $0.trigger == response.trigger && $0.method == response.method }
            guard alike.allSatisfy(\.isBuiltinOrEmpty) else { return response }
            var settled = response
            settled.path.dependsOnRequest = false
            return settled
        }
    }

    /// Whether some way through vcl_recv (`recv`) goes on to the cache or the backend (`hash`, `pass`,
    /// a `restart`, another VCL), not only to answers of Varnish's own (`synth`, `pipe`, which
    /// hands the connection over, `purge`).
    private static func fetches(_ recv: [VCLPath]) -> Bool {
        recv.contains { !["synth", "pipe", "purge", "fail"].contains($0.action ?? "") }
    }

    /// The `return (pipe)` of the VCL's own that a page request by `method` (to `url`, where
    /// given) can reach, with no `Upgrade` header (a websocket's pipe shows no page).
    static func pipes(_ program: VCLProgram, method: String, url: String? = nil) -> [SourceLocation] {
        var values = ["req.method": method]
        values["req.url"] = url
        let flow = VCLFlow(program: program, object: "resp", facts: ["req.http.Upgrade": false], values: values)
        var found: [SourceLocation] = []
        for path in flow.paths(method: "vcl_recv", status: nil) where path.action == "pipe" {
            if let at = path.returnAt, at.path != VCLConfig.builtinPath, !found.contains(at) { found.append(at) }
        }
        return found
    }

    /// The methods of a visitor's request before a response exists, and of a backend fetch.
    static let clientMethods = ["vcl_recv", "vcl_pipe", "vcl_pass", "vcl_hash", "vcl_purge", "vcl_hit", "vcl_miss", "vcl_deliver"]
    static let backendMethods = ["vcl_backend_fetch", "vcl_backend_response"]

    /// Every `return (action(N …))` with a literal error status N that a way through `methods`
    /// ends with: the built-in VCL's only where the VCL's own part falls through to it.
    private static func literalReturns(_ action: String, from methods: [String], in flow: VCLFlow) -> [(Int, SourceLocation)] {
        var found: [(Int, SourceLocation)] = []
        for method in methods {
            for path in flow.paths(method: method, status: nil) where path.action == action {
                // Error statuses only: vcl_purge's synth(200, "Purged") is no error.
                guard let first = path.arguments.first, first.count == 1, let code = Int(first[0].text), code >= 400, let at = path.returnAt else { continue }
                if !found.contains(where: { $0.0 == code && $0.1 == at }) { found.append((code, at)) }
            }
        }
        return found
    }
}
