import DetourDiagnostics
import DetourSupport

/// A `frontend`, `backend` or `listen` section, with what it took from its defaults.
///
/// A class: the rules walk every backend of every frontend, and a reference costs one count
/// to pass where a value would cost one for each of its settings' lists.
final class HAProxyProxy: Sendable {
    let kind: String
    let name: String
    let location: SourceLocation
    let settings: HAProxySettings
    /// The pages for HAProxy's own errors its defaults gave it, by code, before its own lines.
    let inheritedPages: [Int: HAProxyPage]

    init(kind: String, name: String, location: SourceLocation, settings: HAProxySettings, inheritedPages: [Int: HAProxyPage] = [:]) {
        self.kind = kind
        self.name = name
        self.location = location
        self.settings = settings
        self.inheritedPages = inheritedPages
    }

    /// Where visitors arrive.
    var takesRequests: Bool { kind != "backend" }
    var isBackend: Bool { kind != "frontend" }

    /// The same section: a frontend and a backend may share a name.
    func isSection(_ other: HAProxyProxy) -> Bool { location == other.location }
}

/// The configuration as HAProxy applies it: defaults inherited, `errorfiles` resolved
/// against `http-errors` sections (which may come later in the files), buffer sizes from `global`.
struct HAProxyModel: Sendable {
    var proxies: [HAProxyProxy] = []
    /// Backend and listen sections by name, the first of each name, for routing.
    var backendsByName: [String: Int] = [:]
    /// Every page file a line names, once each, as HAProxy opens them all at start (an
    /// `http-errors` section no proxy uses too).
    var pages: [HAProxyPage] = []
    private var seenPages = Set<PageKey>()
    /// By frontend or listen section: the backends it routes to, once each, in the order
    /// named. Every rule walks them.
    private(set) var routed: [ObjectIdentifier: [HAProxyProxy]] = [:]
    /// The frontend and listen sections that speak HTTP, in order: the rows of the coverage table.
    private(set) var httpEntries: [HAProxyProxy] = []
    /// Every `errorloc` line, in order.
    var redirects: [HAProxyRedirect] = []
    var bufferSize = 16384
    var maxRewrite = 1024
    /// Lines HAProxy refuses: a code errorfile cannot customise, an unknown section named.
    var diagnostics: [Diagnostic] = []
    /// The `server` lines refused for TLS that checks a certificate against no CA file.
    private(set) var tlsRefusedServers = Set<SourceLocation>()

    /// A page line once: where its path is written, and the code it answers.
    private struct PageKey: Hashable, Sendable {
        var pathLocation: SourceLocation
        var code: Int
    }

    /// An anonymous defaults section's rules and ACLs: refused while HAProxy reads the file
    /// (rules need a name to be shared: cfgparse-listen.c, tcp_rules.c), so alongside the
    /// keywords it refuses there.
    static func anonymousDefaultsRefusals(_ section: HAProxySection) -> [Diagnostic] {
        guard section.kind == "defaults", section.name == nil else { return [] }
        return section.lines.filter { $0.keyword == "acl" || HAProxyDefaultsUse.ruleKeywords.contains($0.keyword) }.map { line in
            .error(
                HAProxyRules.syntax.id, "'\(line.keyword)' not allowed in anonymous 'defaults' section: HAProxy refuses the file",
                at: line.location,
                notes: [.init("fix: name the section ('defaults NAME'); proxies after it still take it")])
        }
    }

    init(_ config: HAProxyConfig) {
        var errorSections: [String: [HAProxyLine]] = [:]
        for section in config.sections where section.kind == "http-errors" {
            if let name = section.name { errorSections[name] = section.lines }
        }
        for section in config.sections where section.kind == "http-errors" {
            for entry in section.lines where entry.keyword == "errorfile" && entry.words.count >= 3 {
                guard let code = Int(entry.words[1].text), HAProxyFacts.errorfileStatuses.contains(code) else { continue }
                record(
                    HAProxyPage(
                        code: code, path: entry.words[2].text, pathLocation: entry.location(of: entry.words[2]), kind: .response,
                        directive: "errorfile in http-errors \(section.name ?? "")", line: entry.location))
            }
        }
        var named: [String: HAProxySettings] = [:]
        var last = HAProxySettings()
        var lastName: String?
        var uses: [String: HAProxyDefaultsUse] = [:]
        var serverVerify = HAProxyServerVerify()
        for section in config.sections {
            switch section.kind {
            case "global":
                for line in section.lines where line.words.count >= 2 {
                    if line.keyword == "tune.bufsize", let size = Int(line.words[1].text) { bufferSize = size }
                    if line.keyword == "tune.maxrewrite", let size = Int(line.words[1].text) { maxRewrite = size }
                    serverVerify.readGlobal(line)
                }
            case "defaults", "frontend", "backend", "listen":
                // A defaults section starts afresh unless it names one with `from`; a proxy
                // takes the last one.
                let isDefaults = section.kind == "defaults"
                // Copied once: settings hold a dozen tables, each counted on every copy.
                let taken = section.from.flatMap { named[$0] }
                var settings = taken ?? (isDefaults ? HAProxySettings() : last)
                var source = isDefaults ? nil : lastName
                if let from = section.from {
                    source = from
                    if taken == nil {
                        diagnostics.append(
                            .error(
                                HAProxyRules.syntax.id, "no defaults section named '\(from)': HAProxy refuses the file",
                                at: section.fromLocation ?? section.location))
                    }
                }
                if let source, var use = uses[source] {
                    if let refusal = use.record(section) { diagnostics.append(refusal) }
                    uses[source] = use
                }
                diagnostics += Self.anonymousDefaultsRefusals(section)
                // Shared, not merged into a new table, when there is nothing to merge: thousands of
                // backends take the same defaults.
                let inherited =
                    settings.httpErrors.isEmpty ? settings.errorFiles : settings.errorFiles.merging(settings.httpErrors) { _, httpError in httpError }
                for line in section.lines {
                    apply(line, to: &settings, errorSections: errorSections)
                    if !isDefaults { serverVerify.read(line, in: section, defaultServer: settings.defaultServer) }
                }
                if section.kind == "defaults" {
                    last = settings
                    lastName = section.name
                    if let name = section.name {
                        named[name] = settings
                        uses[name] = HAProxyDefaultsUse(
                            name: name, location: section.location, hasRules: section.lines.contains { HAProxyDefaultsUse.ruleKeywords.contains($0.keyword) })
                    }
                } else {
                    let proxy = HAProxyProxy(
                        kind: section.kind, name: section.name ?? "", location: section.location, settings: settings, inheritedPages: inherited)
                    if proxy.isBackend, backendsByName[proxy.name] == nil { backendsByName[proxy.name] = proxies.count }
                    proxies.append(proxy)
                }
            default:
                break
            }
        }
        // HAProxy prepares its servers' TLS after reading the files, only when it read them
        // without a fatal error.
        if diagnostics.isEmpty {
            (diagnostics, tlsRefusedServers) = serverVerify.refusals
            diagnostics =
                HAProxyModeMismatch.refusals(in: proxies, backendsByName: backendsByName) + HAProxyServerNames.conflicts(in: config.sections)
                + HAProxyExternalCheck.refusals(in: config.sections) + diagnostics
        }
        for proxy in proxies where proxy.takesRequests {
            routed[ObjectIdentifier(proxy)] = routedBackends(of: proxy)
        }
        httpEntries = proxies.filter { proxy in
            guard proxy.takesRequests else { return false }
            // A tcp frontend that hands a stream to an HTTP backend is upgraded to HTTP, and
            // HAProxy answers its errors with HTTP pages.
            return proxy.settings.mode == "http" || (proxy.kind == "frontend" && backends(of: proxy).contains { $0.settings.mode == "http" })
        }
    }

    /// The backends a proxy routes to (itself, for `listen`), once each, in the order named;
    /// names no section defines are left out.
    func backends(of proxy: HAProxyProxy) -> [HAProxyProxy] {
        routed[ObjectIdentifier(proxy)] ?? routedBackends(of: proxy)
    }

    private func routedBackends(of proxy: HAProxyProxy) -> [HAProxyProxy] {
        if proxy.kind == "listen" { return [proxy] }
        // Each name looked up once, and kept once by its section's index: a frontend may
        // route to thousands.
        var seen = Set<Int>()
        var backends: [HAProxyProxy] = []
        func add(_ name: String) {
            if let index = backendsByName[name], seen.insert(index).inserted { backends.append(proxies[index]) }
        }
        if let fallback = proxy.settings.defaultBackend { add(fallback.backend) }
        for route in proxy.settings.routes { add(route.backend) }
        return backends
    }

    private mutating func apply(_ line: HAProxyLine, to settings: inout HAProxySettings, errorSections: [String: [HAProxyLine]]) {
        let words = line.words
        if words.count >= 3, settings.answersEveryRequest == nil, settings.requestGuards.isEmpty {
            let action = words[1].text
            if line.knownKeyword == .httpRequest, action == "redirect" || action == "return", line.conditionStart == nil {
                settings.answersEveryRequest = "'http-request \(action) \(words[2].text)…' at line \(line.number)"
            } else if line.knownKeyword == .stats, action == "uri", words[2].text == "/" {
                settings.answersEveryRequest = "the stats page ('stats uri /' at line \(line.number))"
            }
        }
        switch line.knownKeyword {
        case .mode where words.count >= 2:
            settings.mode = words[1].text
        case .stats where words.count >= 2 && (words[1].text == "auth" || (words[1].text == "http-request" && words.count >= 3 && words[2].text == "auth")):
            settings.statsChallenge = true
        case .errorfile where words.count >= 3:
            guard let code = customisableCode(words[1], in: line, directive: "errorfile") else { return }
            settings.errorFiles[code] = record(
                HAProxyPage(
                    code: code, path: words[2].text, pathLocation: line.location(of: words[2]), kind: .response, directive: "errorfile", line: line.location))
            settings.errorRedirects[code] = nil
        case .errorloc, .errorloc302, .errorloc303:
            guard words.count >= 3, let code = customisableCode(words[1], in: line, directive: line.keyword) else { return }
            let redirect = HAProxyRedirect(
                code: code, target: words[2].text, status: line.keyword == "errorloc303" ? 303 : 302, directive: line.keyword, line: line.location)
            settings.errorRedirects[code] = redirect
            settings.errorFiles[code] = nil
            redirects.append(redirect)
        case .acl where words.count >= 3:
            settings.acls[words[1].text, default: []].append(words.dropFirst(2).map(\.text))
        case .httpRequest where words.count >= 2 && HAProxyRequestGuard.actions.contains(words[1].text):
            settings.requestGuards.append(HAProxyRequestGuard(line))
        case .httpRequest where words.count >= 4 && words[1].text == "redirect" && words[2].text == "location":
            let code = line.word(after: "code", from: 3).flatMap { Int($0.text) } ?? 302
            settings.pageRedirects.append(
                HAProxyRedirect(
                    code: nil, target: words[3].text, status: code, directive: "http-request redirect", condition: line.condition, line: line.location))
        case .errorfiles where words.count >= 2:
            guard let lines = errorSections[words[1].text] else {
                diagnostics.append(
                    .error(HAProxyRules.syntax.id, "no http-errors section named '\(words[1].text)': HAProxy refuses the file", at: line.location(of: words[1]))
                )
                return
            }
            let only = Set(words.dropFirst(2).compactMap { Int($0.text) })
            for entry in lines where entry.knownKeyword == .errorfile && entry.words.count >= 3 {
                guard let code = customisableCode(entry.words[1], in: entry, directive: "errorfile"), only.isEmpty || only.contains(code) else { continue }
                settings.errorFiles[code] = HAProxyPage(
                    code: code, path: entry.words[2].text, pathLocation: entry.location(of: entry.words[2]), kind: .response,
                    directive: "errorfiles \(words[1].text)", line: entry.location)
                settings.errorRedirects[code] = nil
            }
        case .httpError where words.count >= 3 && words[1].text == "status":
            guard let code = customisableCode(words[2], in: line, directive: "http-error") else { return }
            if let page = Self.page(in: line, code: code, directive: "http-error") { settings.httpErrors[code] = record(page) }
        case .httpResponse where words.count >= 2 && words[1].text == "return":
            let statuses = Self.statusCondition(line)
            settings.replacedStatuses.formUnion(statuses)
            for code in statuses {
                if let page = Self.page(in: line, code: code, directive: "http-response return") {
                    settings.responseReturns[code] = settings.responseReturns[code] ?? record(page)
                }
            }
        case .httpResponse where words.count >= 3 && words[1].text == "set-status" && line.conditionStart == nil:
            settings.rewrittenStatus = Int(words[2].text) ?? settings.rewrittenStatus
        case .httpRequest where words.count >= 2 && words[1].text == "return":
            // Its file is opened at start like any page (detour's 503 when no server is up).
            let code = line.word(after: "status", from: 2).flatMap { Int($0.text) } ?? 200
            if let page = Self.page(in: line, code: code, directive: "http-request return") { record(page) }
        case .httpAfterResponse:
            settings.afterResponse = settings.afterResponse ?? line.location
        case .defaultBackend where words.count >= 2:
            settings.defaultBackend = HAProxyRoute(line)
        case .useBackend where words.count >= 2:
            settings.routes.append(HAProxyRoute(line))
        case .defaultServer:
            settings.defaultServer.apply(words.dropFirst())
        case .server:
            settings.servers += 1
        case .serverTemplate where words.count >= 3:
            settings.servers += Int(words[2].text.split(separator: "-").last ?? "") ?? 1
        default:
            break
        }
    }

    @discardableResult
    private mutating func record(_ page: HAProxyPage) -> HAProxyPage {
        if seenPages.insert(PageKey(pathLocation: page.pathLocation, code: page.code)).inserted { pages.append(page) }
        return page
    }

    private mutating func customisableCode(_ word: HAProxyWord, in line: HAProxyLine, directive: String) -> Int? {
        guard let code = Int(word.text), HAProxyFacts.errorfileStatuses.contains(code) else {
            let known = HAProxyFacts.errorfileStatuses.sorted().map(String.init).joined(separator: ", ")
            diagnostics.append(
                .error(
                    HAProxyRules.errorfileCode.id,
                    "\(directive) cannot customise status '\(word.text)': HAProxy refuses the file ('status code not handled'); it knows \(known)",
                    at: line.location(of: word)))
            return nil
        }
        return code
    }

    /// The file an `http-error` or `return` rule sends: `errorfile F` (a whole response),
    /// `file F` or `lf-file F` (a body).
    static func page(in line: HAProxyLine, code: Int, directive: String) -> HAProxyPage? {
        for (keyword, kind) in [("errorfile", HAProxyPage.Kind.response), ("file", .body), ("lf-file", .body)] {
            if let path = line.word(after: keyword, from: 1) {
                return HAProxyPage(code: code, path: path.text, pathLocation: line.location(of: path), kind: kind, directive: directive, line: line.location)
            }
        }
        return nil
    }

    /// The statuses an `if { status … }` condition names (`500`, `500:599`, several).
    static func statusCondition(_ line: HAProxyLine) -> Set<Int> {
        var found = Set<Int>()
        let words = line.words.map(\.text)
        for index in words.indices where words[index] == "status" && index > 0 && words[index - 1] == "{" {
            for value in words[(index + 1)...].prefix(while: { $0 != "}" }) {
                let bounds = value.split(separator: ":").compactMap { Int($0) }
                if bounds.count == 2, bounds[0] <= bounds[1], bounds[1] - bounds[0] < 1000 {
                    found.formUnion(bounds[0]...bounds[1])
                } else if bounds.count == 1 {
                    found.insert(bounds[0])
                }
            }
        }
        return found
    }
}
