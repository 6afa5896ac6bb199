import DetourContent
import DetourLayout
import DetourSupport

/// The one neutral model every server snippet is rendered from: which page answers which code,
/// in which language and format, where the pages are installed and under which URL path they
/// are served. Each template only spells this in its server's syntax, as swift-argument-parser
/// spells one command model as each shell's completion script.
public struct SnippetModel {
    /// Where `detour snippet --example` runs the server.
    /// Where `detour snippet --example`'s configuration listens, proxies to and keeps its state.
    public struct Example: Sendable {
        public var listenHost: String
        public var listenPort: Int
        /// `host:port` of the application.
        public var upstream: String
        /// Absolute folder for the server's pid file, logs and temporary files.
        public var stateDirectory: String

        public init(listenHost: String, listenPort: Int, upstream: String, stateDirectory: String) {
            self.listenHost = listenHost
            self.listenPort = listenPort
            self.upstream = upstream
            self.stateDirectory = stateDirectory
        }
    }

    let content: Content
    let installPath: String

    func dictionary(example: Example? = nil, rendered: [SnippetTarget: String] = [:]) -> [String: Any] {
        let site = content.site
        let languages = site.languages
        let codes = content.codes.filter(\.generatesPage)
        var model: [String: Any] = [
            "site": ["name": site.name, "baseURL": site.baseURL],
            "installPath": installPath,
            "pagesFolder": SiteLayout.installed(SiteLayout.errorsFolder, in: installPath),
            "errorPath": site.errorPath,
            "defaultLanguage": site.language,
            "defaultFormat": OutputFormat.html.name,
            "defaultContentType": OutputFormat.html.contentType,
            "languages": languages.enumerated().map { index, language -> [String: Any] in
                var entry: [String: Any] = ["tag": language, "isDefault": index == 0]
                entry["pattern"] = Self.firstListedPattern(language, among: languages)
                return entry
            },
            // Go's regexp has no lookahead: one pattern whose first capture is the earliest listed language.
            "languageCapture": "(?i)^(?:[^,]*,)*?\\s*(" + languages.joined(separator: "|") + ")\\b",
            "formats": OutputFormat.negotiated.map { format -> [String: Any] in
                var entry: [String: Any] = [
                    "name": format.name, "extension": format.fileExtension, "mediaType": format.mediaType, "contentType": format.contentType,
                ]
                entry["acceptPattern"] = format.acceptPattern.map { "^\\s*" + $0 }
                return entry
            },
            "codes": codes.enumerated().map { index, code -> [String: Any] in
                var entry: [String: Any] = ["status": code.status, "title": code.title, "isServerError": code.status >= 500, "isFirst": index == 0]
                entry["retryAfter"] = code.retryAfter
                return entry
            },
            "hasCodes": !codes.isEmpty,
            "hasUpstreamCodes": codes.contains { SnippetTarget.replacedFromUpstream($0.status) },
            "retryCodes": codes.compactMap { code in code.retryAfter.map { ["status": code.status, "retryAfter": $0] as [String: Any] } },
            "serverErrorStatuses": codes.filter { $0.status >= 500 }.map { String($0.status) }.joined(separator: " "),
            "upstreamCodes": codes.filter { SnippetTarget.replacedFromUpstream($0.status) }.enumerated().map { index, code in
                ["status": code.status, "isFirst": index == 0] as [String: Any]
            },
            "statusList": codes.map { String($0.status) }.joined(separator: ", "),
            "haproxyErrorfiles": codes.filter { HAProxyFacts.errorfileStatuses.contains($0.status) }.map { code in
                [
                    "status": code.status,
                    "file": SiteLayout.installed(
                        SiteLayout.errorPage(code.status, language: nil, fileExtension: OutputFormat.haproxy.fileExtension), in: installPath),
                ] as [String: Any]
            },
            "serverErrorVariants": variants(of: codes.filter { $0.status >= 500 }),
            "unavailableVariants": variants(of: codes.filter { $0.status == 503 }),
        ]
        model["staleIfError"] = site.staleIfError
        if let example {
            var entry: [String: Any] = [
                "listenHost": example.listenHost, "listenPort": example.listenPort,
                "upstream": example.upstream, "state": example.stateDirectory,
            ]
            // Varnish takes a backend's host and port apart.
            if let colon = example.upstream.lastIndex(of: ":") {
                entry["upstreamHost"] = example.upstream[..<colon].filter { $0 != "[" && $0 != "]" }
                entry["upstreamPort"] = String(example.upstream[example.upstream.index(after: colon)...])
            }
            model["example"] = entry
        }
        for (server, text) in rendered {
            model["snippet_" + server.rawValue.replacingOccurrences(of: "-", with: "_")] = text
        }
        return model
    }

    /// Every page of `codes` in every language and format, for servers that need one rule each.
    private func variants(of codes: [ErrorCode]) -> [[String: Any]] {
        codes.flatMap { code in
            content.site.languages.flatMap { language in
                OutputFormat.negotiated.map { format -> [String: Any] in
                    var entry: [String: Any] = [
                        "status": code.status, "language": language, "format": format.name, "contentType": format.contentType,
                        "file": SiteLayout.installed(
                            SiteLayout.errorPage(code.status, language: language, fileExtension: format.fileExtension), in: installPath),
                    ]
                    entry["retryAfter"] = code.retryAfter
                    // HAProxy fills the request's ID into the HTML page's log-format copy.
                    if format == .html, OutputFormat.haproxyPage.applies(to: code.status) {
                        entry["logFormatFile"] =
                            SiteLayout.installed(
                                SiteLayout.errorPage(code.status, language: language, fileExtension: OutputFormat.haproxyPage.fileExtension), in: installPath)
                    }
                    return entry
                }
            }
        }
    }

    /// A PCRE pattern (nginx, Apache, HAProxy) that matches an `Accept-Language` header whose
    /// first listed site language is `language`: no other site language comes before it.
    /// Quality values are not weighed; browsers list languages in order of preference.
    static func firstListedPattern(_ language: String, among languages: [String]) -> String? {
        let others = languages.filter { $0 != language }
        guard !others.isEmpty else { return nil }
        return "^(?:\\s*(?!(?:" + others.joined(separator: "|") + ")\\b)[^,]*,)*\\s*" + language + "\\b"
    }
}
