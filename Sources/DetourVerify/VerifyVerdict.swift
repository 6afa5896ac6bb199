import DetourDiagnostics
import DetourProxyCore

/// Turns what the probes saw into findings with `detour check`'s rule ids (`SharedCheck`) and
/// severities (the dialect's catalogue), one per rule and place, each with its evidence:
/// - a status detour has a page for, answered by the server's built-in page, nothing, or the
///   upstream's own body in a site that answers no error with a page: `code-not-covered`, at
///   the site (a page of the site's own, not detour's, covers it);
/// - the upstream's own body for such a status where the route names a page for it (when the
///   dialect says which codes it names), else in a site that does answer with detour's pages
///   elsewhere (or in any site, where the dialect's check asks every backend):
///   `upstream-errors-pass-through`, at the route's upstream (or the site's one place for it);
/// - a 404 where a request that reached the upstream met its failure: `error-page-missing-file`;
/// - an error page's own URI answered by the upstream: `error-page-proxied`, at the line that
///   names the page; answered by anything else, the dialect's reachable rule (its location is
///   not internal), with `error-page-missing-file` for a 404 and `error-page-protected` for a
///   401 or 403;
/// - the upstream's own body for a status with no page where the route intercepts errors:
///   `code-not-covered`, and the dialect's intercepting rule at the route's upstream; where it
///   does not, and the dialect counts the upstream's other errors as its pass-through
///   (`unnamedStatusesPass`), `code-not-covered` only for a status the server raises too;
/// - a code whose inherited page the route's location dropped, answered with the server's own
///   page or nothing: the dialect's rule for it, at the location's own `error_page`;
/// - a code a server-level statement answered, and answered again for its page's own request,
///   with the server's own page or nothing: the dialect's rule for it, at that statement;
/// - a code the server raises itself (`SandboxPlan.Route.raises`) answered with a 404:
///   `error-page-missing-file`, with one of detour's pages and a success status:
///   `error-page-soft-status`, each at the line naming its page;
/// - an error page's URI answered by something other than a file (a `return`): the dialect's
///   rule for it, at the line that names the page;
/// - a 401 or 403 where the upstream failed (it sends neither): the page's own request refused,
///   `error-page-protected` at the location that answers the page's URI;
/// - one of detour's pages sent with a success status where it is a whole response (HAProxy's
///   `errorfile`): the dialect's status-line rule at the line naming it;
/// - one of detour's pages sent with a success status, or any body but the upstream's sent with
///   one while the upstream failed: `error-page-soft-status`, at the line naming the page for
///   the status the server met, where the dialect says which.
enum VerifyVerdict {
    /// What a group of probes shows.
    enum Kind: Equatable {
        case shared(SharedCheck)
        /// The page's own URI answered visitors (the dialect's rule).
        case reachable(String)
        /// The upstream's error passed where the route intercepts errors (the dialect's rule).
        case intercepted(String)
        /// A header the page carries as a success is missing from it as an error (rule, name).
        case header(String, String)
        /// The upstream's failure answered with a redirect (the dialect's rule).
        case redirect(String)
        /// A code whose inherited page the route's location dropped (the dialect's rule).
        case dropped(String)
        /// A code a server-level statement answered, whose page it refused in turn (the dialect's rule).
        case rerun(String)
        /// A code the server raised itself answered with a 404: its page's file is missing.
        case raisedPageMissing
        /// A page's URI answered by something other than a file (the dialect's rule).
        case returned(String)
        /// A whole-response page sent with a success: its file's status line (the dialect's rule).
        case statusLine(String)
    }

    struct Group {
        var kind: Kind
        var location: SourceLocation
        var observations: [VerifyObservation] = []
    }

    static func findings(
        _ observations: [VerifyObservation], plan: SandboxPlan, dialect: String, catalogue: [RuleDescription], codes: Set<Int>,
        passThroughWithoutPages: Bool = false, loggedBrokenPages: Set<[Int]> = [], upstreamPages: Set<[Int]> = []
    ) -> [Diagnostic] {
        // Routes whose requests reach the upstream while it answers: their failures are the upstream's.
        let reaching = Set(observations.filter { $0.mode == .answers && $0.reachedUpstream }.map { [$0.site, $0.route] })
        // Routes that answer 404 while the upstream answers (the site has no such file, and
        // its own error handling asked the upstream): a 404 when it fails is that same one.
        let notFoundAnyway = Set(observations.filter { $0.mode == .answers && $0.status == 404 }.map { [$0.site, $0.route] })
        // Sites that answer some error with a page (detour's, or one of the site's own files),
        // or whose pages the server's log shows missing: they have pages, set up somewhere.
        let servingPages = Set(
            observations.filter { observation in
                switch observation.body {
                case .page: true
                case .site: codes.contains(observation.status)
                default: false
                }
            }.map(\.site)
        ).union(loggedBrokenPages.map { $0[0] })
        // Sites whose pages from the failing upstream (the log's) took every error the server
        // raised in them: the route takes every status, the upstream's own among them.
        var upstreamPagesEverywhere = Set(upstreamPages.map { $0[0] })
        for observation in observations
        where observation.mode != .answers && observation.method != "HEAD" && observation.body.holdsNothing && observation.status >= 500 {
            if !upstreamPages.contains([observation.site, observation.status]), !upstreamPages.contains([observation.site, 0]) {
                upstreamPagesEverywhere.remove(observation.site)
            }
        }
        // Sites that refuse every probe alike (a server-wide password): the visitor who meets an
        // error has passed that guard, which then guards no page from them.
        var guardedEverywhere = Set(plan.sites.indices)
        for observation in observations where observation.mode == .answers && plan.sites[observation.site].routes[observation.route].page == nil {
            if observation.status != 401, observation.status != 403 { guardedEverywhere.remove(observation.site) }
        }
        // Codes whose page, asked for directly, is refused, missing or the upstream's, by site.
        var brokenPages = Set<[Int]>()
        for observation in observations where observation.mode == .answers {
            guard let page = plan.sites[observation.site].routes[observation.route].page,
                [401, 403, 404].contains(observation.status) || observation.body == .upstream
            else { continue }
            for code in page.codes { brokenPages.insert([observation.site, code]) }
        }
        // By site, the headers added to successes only where its pages are served
        // (`successHeaders`) that one of its successful answers showed.
        var pageHeaders: [Int: [(name: String, location: SourceLocation, rule: String)]] = [:]
        for observation in observations where (200..<300).contains(observation.status) {
            for header in plan.sites[observation.site].successHeaders where observation.headerNames.contains(header.name) {
                if !(pageHeaders[observation.site] ?? []).contains(where: { $0.location == header.location }) {
                    pageHeaders[observation.site, default: []].append(header)
                }
            }
        }
        // A site that answers no probe with a success (`return 444` for all else) has none to
        // show them: nginx's rule (`always` or successes only) is the fact there.
        let succeeding = Set(observations.filter { (200..<300).contains($0.status) }.map(\.site))
        for site in plan.sites.indices where !succeeding.contains(site) && !plan.sites[site].successHeaders.isEmpty {
            pageHeaders[site] = plan.sites[site].successHeaders
        }
        var groups: [String: Group] = [:]
        var order: [String] = []
        func add(_ kind: Kind, at location: SourceLocation, _ observation: VerifyObservation) {
            let key = "\(kind) \(location.path):\(location.line):\(location.column)"
            if groups[key] == nil {
                groups[key] = Group(kind: kind, location: location)
                order.append(key)
            }
            groups[key]!.observations.append(observation)
        }
        // Where the dialect names a check's finding about this answer, by what the request met.
        func place(_ check: SharedCheck, _ observation: VerifyObservation) -> SourceLocation? {
            let route = plan.sites[observation.site].routes[observation.route]
            let places = route.places
            let reaches = reaching.contains([observation.site, observation.route])
            if observation.method == "POST", reaches, let form = route.formPlaces, observation.mode != .down, observation.mode != .closesMidBody {
                if case .status(let own) = observation.mode { return form.upstream[own]?[check] }
                return form.own[check]
            }
            if case .status(let own) = observation.mode, reaches { return places.upstream[own]?[check] }
            if observation.mode == .closesMidBody, reaches, let brokenOff = places.brokenOff { return brokenOff[check] }
            return places.own[check]
        }
        func add(_ check: SharedCheck, at location: SourceLocation, _ observation: VerifyObservation) {
            add(.shared(check), at: place(check, observation) ?? location, observation)
        }
        for observation in observations {
            let site = plan.sites[observation.site]
            let route = site.routes[observation.route]
            // What the server sends past every page (`SandboxPlan.unreplaceableAnswers`) no page can change.
            if observation.unreplaceable(in: plan) != nil { continue }
            // An error page's own URI, asked for directly: there, and not for visitors to ask.
            if let page = route.page {
                guard observation.mode == .answers else { continue }
                if let rule = page.returnedRule, observation.method != "HEAD", [.site, .builtin].contains(observation.body) || observation.body.holdsNothing {
                    // Not a file: what answers the URI is what visitors get for the codes.
                    add(.returned(rule), at: page.directive, observation)
                    continue
                }
                switch observation.status {
                case _ where observation.body == .upstream:
                    // The page's URI is the upstream's: so is the page the server would fetch for
                    // it, unless it went there for want of its file.
                    add(page.fileMissing ? .missingFile : .proxied, at: page.directive, observation)
                case 200..<300:
                    if let rule = page.reachableRule { add(.reachable(rule), at: route.location, observation) }
                case 404:
                    // Its location is not internal (those are not asked for): once the file is
                    // there, visitors get it too.
                    add(.missingFile, at: page.directive, observation)
                    if let rule = page.reachableRule { add(.reachable(rule), at: route.location, observation) }
                case 401, 403:
                    // A guard on the whole site keeps from visitors only the page of its own refusal.
                    if !guardedEverywhere.contains(observation.site) || page.codes.contains(observation.status) {
                        add(.protected, at: route.location, observation)
                    }
                    if let rule = page.reachableRule { add(.reachable(rule), at: route.location, observation) }
                default:
                    break
                }
                continue
            }
            // A code the server raises itself: a 404 in its place is its page's missing file, and
            // a page sent with a success is a soft status (what a limit's 503 would get).
            if let code = route.raises, let line = route.pageLines?[code] {
                if observation.status == 404, code != 404 { add(.raisedPageMissing, at: line, observation) }
                // The refusal raised again, without its page: the page's own request was refused.
                if [401, 403].contains(code), observation.status == code, observation.body == .builtin || observation.body.holdsNothing {
                    add(.protected, at: route.places.own[.protected] ?? line, observation)
                }
                if case .page = observation.body, (200..<400).contains(observation.status) { add(.softStatus, at: line, observation) }
                continue
            }
            if route.raises != nil { continue }
            // A HEAD's answer has no body to tell whose page it is.
            if observation.method == "HEAD" { continue }
            // A code whose inherited page the route's location dropped, answered without a page.
            if let dropped = route.droppedPages, dropped.codes.contains(observation.status), observation.body == .builtin || observation.body.holdsNothing {
                add(.dropped(dropped.rule), at: dropped.location, observation)
                continue
            }
            // A code a server-level statement answered, without the page named for it.
            if let rerun = route.rerunPages, rerun.codes.contains(observation.status), observation.body == .builtin || observation.body.holdsNothing {
                add(.rerun(rerun.rule), at: rerun.location, observation)
                continue
            }
            // An error answer for a code detour has a page for, or one of the site's own error
            // pages, without a header the site's successes carry.
            if observation.status >= 400, observation.body != .upstream, !observation.body.holdsNothing,
                codes.contains(observation.status) || observation.body != .builtin
            {
                for header in pageHeaders[observation.site] ?? [] where !observation.headerNames.contains(header.name) {
                    add(.header(header.rule, header.name), at: header.location, observation)
                }
            }
            let reaches = reaching.contains([observation.site, observation.route])
            // A route that never reaches the upstream answers alike in every mode: judged once.
            if !reaches, observation.mode != .answers { continue }
            if reaches, observation.mode != .answers, (300..<400).contains(observation.status), let rule = plan.redirectRule, !route.redirects.isEmpty {
                let lines = Set(route.redirects.values.map { "\($0.path):\($0.line)" })
                let place =
                    Self.raisedStatuses(observation.mode).lazy.compactMap { route.redirects[$0] }.first
                    ?? (lines.count == 1 ? route.redirects.values.first : nil)
                add(.redirect(rule), at: place ?? route.location, observation)
                continue
            }
            switch observation.body {
            case .page where (200..<400).contains(observation.status):
                if let rule = plan.statusLineRule, let line = Self.rawPageLine(route, observation.mode) {
                    add(.statusLine(rule), at: line, observation)
                } else {
                    add(.softStatus, at: Self.pageLine(route, observation.mode) ?? route.responseLocation ?? route.location, observation)
                }
            case .site where (200..<300).contains(observation.status) && reaches && observation.mode != .answers:
                // The upstream's failure answered as a success, with a page of the site's own.
                add(
                    .softStatus, at: Self.pageLine(route, observation.mode) ?? route.responseLocation ?? route.upstreamLocation ?? route.location,
                    observation)
            case .page:
                continue
            case _ where reaches && observation.mode != .answers && (observation.status == 401 || observation.status == 403):
                // The upstream sends neither: the page's own request was refused (a password on
                // the pages' location), and that refusal is what visitors who meet the failure get.
                guard !guardedEverywhere.contains(observation.site), let status = pageStatus(observation.mode),
                    let page = site.routes.first(where: { $0.page?.codes.contains(status) == true })
                else { continue }
                add(.protected, at: page.location, observation)
            case .upstream where codes.contains(observation.status):
                // Whether the route names a page for it (nil: the dialect does not say).
                let named = route.pageLines.map { $0[observation.status] != nil }
                // Intercepted, with a page its own URI shows broken (the upstream's): that page's finding.
                if named == true, route.intercepting != nil, brokenPages.contains([observation.site, observation.status]) { continue }
                // Not intercepted, where the dialect counts it so, the upstream's status passes
                // whether a page is named for it or not.
                let passesUnnamed = named == false && route.intercepting == nil && plan.unnamedStatusesPass
                if named == false, let rule = route.intercepting {
                    // Intercepted, and still the upstream's: no page here for that status.
                    add(.codeNotCovered, at: site.location, observation)
                    add(.intercepted(rule), at: route.upstreamLocation ?? route.location, observation)
                } else if named == false, !passesUnnamed || plan.ownErrorStatuses.contains(observation.status) {
                    add(.codeNotCovered, at: site.location, observation)
                } else if named == nil, !passThroughWithoutPages, !servingPages.contains(observation.site),
                    !upstreamPages.contains([observation.site, observation.status]), !upstreamPagesEverywhere.contains(observation.site)
                {
                    add(.codeNotCovered, at: site.location, observation)
                }
                let passes = named == true || passesUnnamed || passThroughWithoutPages || (named == nil && servingPages.contains(observation.site))
                if passes, !(named == true && plan.serverRaisedStatuses.contains(observation.status)) {
                    add(
                        .upstreamPassThrough,
                        at: route.passThroughByMethod[observation.method] ?? site.passThroughLocation ?? route.upstreamLocation ?? route.location, observation)
                }
            case .site where codes.contains(observation.status):
                // A page of the site's own answers it: covered, if not by detour's page.
                continue
            case _
            where reaches && observation.mode != .answers && observation.status == 404 && !notFoundAnyway.contains([observation.site, observation.route]):
                add(.missingFile, at: Self.pageLine(route, observation.mode) ?? route.location, observation)
            case _ where observation.body.holdsNothing && codes.contains(observation.status) && place(.missingFile, observation) != nil:
                // The answer's page is read from a file that left it empty (Varnish's std.fileread
                // of a missing file): that read's finding.
                add(.missingFile, at: route.location, observation)
            case _ where codes.contains(observation.status):
                // A page named for it that its own URI (or the server's log) shows broken is
                // that page's finding.
                if brokenPages.contains([observation.site, observation.status]) || loggedBrokenPages.contains([observation.site, observation.status])
                    || loggedBrokenPages.contains([observation.site, 0]) || upstreamPages.contains([observation.site, observation.status])
                    || upstreamPages.contains([observation.site, 0])
                {
                    continue
                }
                // A whole-response page the configuration names answers it: the operator's own
                // page, as the coverage table of `detour check` shows it.
                if Self.rawPageLine(route, observation.mode, status: observation.status) != nil { continue }
                add(.codeNotCovered, at: site.location, observation)
            default:
                continue
            }
        }
        let severities = Dictionary(catalogue.map { ($0.id, $0.severity) }, uniquingKeysWith: { first, _ in first })
        // Groups of one rule at one place are one finding (a page missing for the server's own
        // code and for the upstream's failure alike), worded as the first.
        var merged: [(rule: String, group: Group)] = []
        for key in order {
            let group = groups[key]!
            let rule: String =
                switch group.kind {
                case .shared(let check): check.id(dialect)
                case .raisedPageMissing: SharedCheck.missingFile.id(dialect)
                case .reachable(let rule), .intercepted(let rule), .header(let rule, _), .redirect(let rule), .dropped(let rule), .rerun(let rule),
                    .returned(let rule), .statusLine(let rule):
                    rule
                }
            if let same = merged.firstIndex(where: { $0.rule == rule && $0.group.location == group.location }) {
                merged[same].group.observations += group.observations
            } else {
                merged.append((rule, group))
            }
        }
        return merged.map { rule, group in
            let evidence = group.observations.map(\.evidence)
            let shown = evidence.prefix(Self.shownEvidence).map { Diagnostic.Note("seen: \($0)") }
            let rest = evidence.count - shown.count
            let more = rest > 0 ? [Diagnostic.Note("and \(rest) more \(rest == 1 ? "probe" : "probes") alike")] : []
            return Diagnostic(severities[rule] ?? .warning, rule, message(group), at: group.location, notes: shown + more)
        }
    }

    /// The line naming the page for the status the server meets in `mode` (its own 502 for an
    /// upstream that does not listen or breaks off, 504 for a silent one, the upstream's own
    /// status), where the route's dialect says.
    private static func pageLine(_ route: SandboxPlan.Route, _ mode: FakeUpstream.Mode) -> SourceLocation? {
        pageStatus(mode).flatMap { route.pageLines?[$0] }
    }

    /// The line naming the whole-response page the server sends in `mode`: the one replacing
    /// the upstream's own status, or for the first status the server may raise itself; for
    /// `status`, the page for that very status.
    private static func rawPageLine(_ route: SandboxPlan.Route, _ mode: FakeUpstream.Mode, status: Int? = nil) -> SourceLocation? {
        if case .status(let own) = mode, status == nil || status == own { return route.rawPages.upstream[own] }
        if let status { return route.rawPages.own[status] }
        return raisedStatuses(mode).lazy.compactMap { route.rawPages.own[$0] }.first
    }

    /// The statuses a server that redirects its own errors (HAProxy, Apache) may raise in
    /// `mode`, the likeliest first: 503 when nothing listens (no server left), 504 for a silent
    /// one (Apache's HTTP proxy: 502).
    private static func raisedStatuses(_ mode: FakeUpstream.Mode) -> [Int] {
        switch mode {
        case .answers: []
        case .down: [503, 502]
        case .closesMidBody, .malformed: [502]
        case .silent: [504, 502]
        case .status(let own): [own]
        }
    }

    private static func pageStatus(_ mode: FakeUpstream.Mode) -> Int? {
        switch mode {
        case .answers: nil
        case .down, .closesMidBody, .malformed: 502
        case .silent: 504
        case .status(let own): own
        }
    }

    /// Probes listed under each finding.
    static let shownEvidence = 3
}
