import ArgumentParser
import CMemory
import DetourApache
import DetourCaddy
import DetourDiagnostics
import DetourHAProxy
import DetourLayout
import DetourNginx
import DetourProxyCore
import DetourRules
import DetourVarnish
import Foundation

struct CheckCommand: ParsableCommand {
    /// The servers `detour check` reads, in the order `--list-rules` shows them.
    static var dialects: [any ProxyDialect.Type] { RuleBook.dialects }
    static var catalogue: [RuleDescription] { RuleBook.checkRules }

    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check that a proxy configuration really serves the error pages.",
        discussion: """
            Use 'detour check nginx <main.conf>', 'detour check caddy <Caddyfile>', 'detour check haproxy <haproxy.cfg>', 'detour check apache <apache2.conf>' or 'detour check varnish <default.vcl>', or 'detour check <file>' to have the server guessed.

            Reads the configuration with its includes as the server does, resolves every error page (nginx's error_page, Caddy's handle_errors, HAProxy's errorfile, http-error and http-response return, Apache's ErrorDocument through Alias, DocumentRoot and ProxyPass, Varnish's vcl_backend_error and vcl_synth with the built-in VCL) to the route and file that would answer it, checks HAProxy's errorfiles as HAProxy reads them, and reports what visitors would get instead. It ends with a table of which file answers each code in each server or site, and how many were read.

            --pages names detour's generated pages (default \(SiteLayout.defaultPagesFolder) when it exists): every code with a page there should be covered. --map INSTALL_PATH=LOCAL_DIR checks paths the configuration names on the server against a local copy, for example --map /usr/share/detour=public. Where no page the configuration names exists here and no --map is given, the missing-page findings are one error naming the folder and the --map that checks the local build.

            Every finding links its rule's page on the help site of the project it runs in (<base_url>rules/<rule>/, which detour build writes; outside a project, the command that explains it). --explain RULE prints the same explanation offline: what the rule looks for, what visitors get, the configuration it fires on with what detour says of it, and the near miss that works.

            Rules (--list-rules prints what visitors get for each):
            \(RuleTable.summaries(catalogue))
            """
    )

    @Argument(help: "nginx, caddy, haproxy, apache or varnish, then the main configuration file (haproxy: files and folders, read in order); or only the file.")
    var arguments: [String] = []

    @Flag(help: "Print the rules as a table (id, severity, what visitors would get) and exit.")
    var listRules = false

    @Option(
        help: ArgumentHelp(
            "Print what a rule means, with the configuration it fires on, what detour says of it and the near miss that works, and exit; any rule of check or build (nginx.error-page-proxied, markdown.broken-link).",
            valueName: "RULE"))
    var explain: String?

    @OptionGroup var pageOptions: PageOptions

    @Option(
        help: ArgumentHelp(
            "Read a Caddyfile as this Caddy version does (heredocs and {args[N]} from 2.7, handle_errors status codes from 2.8); default: the installed caddy's, else 2.6.",
            valueName: "VERSION"))
    var caddyVersion: String?

    @Option(
        help: ArgumentHelp(
            "Read an HAProxy configuration's keywords as this HAProxy version does: 2.6 refuses every keyword it does not take, a newer one only those HAProxy removed, an older one none; default: the installed haproxy's, else 2.6.",
            valueName: "VERSION"))
    var haproxyVersion: String?

    @Option(
        name: .customLong("server-root"),
        help: ArgumentHelp(
            "Apache: where relative Include and file paths start when the configuration sets no ServerRoot, as 'apache2 -d' takes it (default: the main file's folder). Varnish: the folders a relative include is looked up in, colon-separated, as varnishd's '-p vcl_path' (default: the main file's folder, then /etc/varnish:/usr/share/varnish/vcl, as for a VCL installed with its includes beside it).",
            valueName: "DIR"))
    var serverRoot: String?

    @Flag(name: .shortAndLong, help: "Print findings only, no coverage table.")
    var quiet = false

    @OptionGroup var diagnostics: DiagnosticOptions

    func validate() throws {
        if listRules || explain != nil { return }
        // HAProxy reads several files in order (`haproxy -f detour.cfg -f haproxy.cfg`).
        guard (1...2).contains(arguments.count) || (arguments.count > 2 && arguments[0] == HAProxyChecker.name) else {
            throw ValidationError(
                "give the configuration file, optionally after the server name: detour check nginx nginx.conf (haproxy takes several, read in order)")
        }
        if arguments.count == 2, !Self.dialects.contains(where: { $0.name == arguments[0] }) {
            throw ValidationError("detour check reads nginx, Caddy, HAProxy, Apache and Varnish configurations; '\(arguments[0])' is none of them")
        }
        if let caddyVersion, CaddyVersion(caddyVersion) == nil {
            throw ValidationError("--caddy-version takes a version such as 2.6 or 2.8.4, not '\(caddyVersion)'")
        }
        if let haproxyVersion, HAProxyVersionSource.Version(haproxyVersion) == nil {
            throw ValidationError("--haproxy-version takes a version such as 2.6 or 2.8.4, not '\(haproxyVersion)'")
        }
    }

    func run() throws {
        // A model of thousands of sections is megabytes, read once and let go at exit.
        _ = detour_heap_in_huge_pages(64 << 20)
        if listRules {
            print(RuleTable.markdown(Self.catalogue), terminator: "")
            return
        }
        if let explain {
            guard let explanation = RuleExplanation(explain) else {
                let suggestion = RuleBook.closest(to: explain).map { "; did you mean '\($0)'?" } ?? ""
                throw ValidationError("no rule is named '\(explain)'\(suggestion) (detour check --list-rules lists the servers' rules)")
            }
            let page = DiagnosticOptions.helpLinks().url(explain)
            print(explanation.text(page: page), terminator: "")
            return
        }
        let paths = arguments.count == 1 ? arguments : Array(arguments.dropFirst())
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let files = paths.map { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : cwd.appendingPathComponent($0) }
        for (path, file) in zip(paths, files) where !FileManager.default.fileExists(atPath: file.path) {
            throw ValidationError("configuration file '\(path)' does not exist")
        }
        let (path, file) = (paths[0], files[0])
        let name = arguments.count >= 2 ? arguments[0] : ServerGuess.guess(file).rawValue
        guard let dialect = Self.dialects.first(where: { $0.name == name }) else {
            throw ValidationError("'\(path)' looks like \(name) configuration; detour check reads nginx, Caddy, HAProxy, Apache and Varnish configurations")
        }
        let pagesPath = pageOptions.pagesPath(in: cwd)
        let options = ProxyCheck.Options(
            main: file.standardizedFileURL,
            mainDisplay: path,
            pages: pagesPath.map { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : cwd.appendingPathComponent($0) },
            maps: pageOptions.pathMaps,
            serverVersion: dialect == CaddyChecker.self ? caddyVersion : dialect == HAProxyChecker.self ? haproxyVersion : nil,
            more: zip(files, paths).dropFirst().map { ($0.0.standardizedFileURL, $0.1) },
            serverRoot: serverRoot.map { roots in
                roots.split(separator: ":").map { $0.hasPrefix("/") ? String($0) : cwd.appendingPathComponent(String($0)).standardizedFileURL.path }
                    .joined(separator: ":")
            }
        )
        if let pagesPath, PageFolder.codes(in: options.pages).isEmpty {
            throw ValidationError("no <status>.html pages in '\(pagesPath)'; build them with 'detour build' or name the folder with --pages")
        }
        let notInstalled = PagesNotInstalled(
            output: SiteLayout.defaultOutput, outputURL: cwd.appendingPathComponent(SiteLayout.defaultOutput), pagesFolder: SiteLayout.errorsFolder)
        let report = notInstalled.apply(to: dialect.check(options), maps: options.maps)
        let status = diagnostics.report(
            report.diagnostics, catalogue: dialect.catalogue,
            extra: ["coverage": report.coverage, "files": report.files])
        if !quiet, diagnostics.format == .text {
            print(CoverageTable.render(report.coverage, pages: pagesPath, files: report.files.count, site: dialect.siteNoun), terminator: "")
        }
        // Ends here, with what the check built still held (`Report.built`): the system frees
        // it at once, where releasing it piece by piece would cost a large configuration
        // milliseconds.
        Foundation.exit(status)
    }
}
