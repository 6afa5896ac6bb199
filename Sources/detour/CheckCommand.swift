import ArgumentParser
import DetourCaddy
import DetourDiagnostics
import DetourNginx
import DetourProxyCore
import Foundation

struct CheckCommand: ParsableCommand {
    /// The servers `detour check` reads, in the order `--list-rules` shows them.
    static let dialects: [any ProxyDialect.Type] = [NginxChecker.self, CaddyChecker.self]
    static var catalogue: [RuleDescription] { dialects.flatMap { $0.catalogue } }

    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check that a proxy configuration really serves the error pages.",
        discussion: """
        Use 'detour check nginx <main.conf>' or 'detour check caddy <Caddyfile>', or 'detour check <file>' to have the server guessed.

        Reads the configuration with its includes as the server does, resolves every error page (nginx's error_page, Caddy's handle_errors) to the route and file that would answer it, and reports what visitors would get instead. It ends with a table of which file answers each code in each server or site, and how many were read.

        --pages names detour's generated pages (default public/errors when it exists): every code with a page there should be covered. --map INSTALL_PATH=LOCAL_DIR checks paths the configuration names on the server against a local copy, for example --map /usr/share/detour=public.

        Rules (--list-rules prints what visitors get for each):
        \(RuleTable.summaries(catalogue))
        """
    )

    @Argument(help: "nginx or caddy, then the main configuration file; or only the file.")
    var arguments: [String] = []

    @Flag(help: "Print the rules as a table (id, severity, what visitors would get) and exit.")
    var listRules = false

    @Option(help: "Folder of detour's generated error pages.")
    var pages: String?

    @Option(name: .customLong("map"), help: ArgumentHelp("Read INSTALL_PATH on the server as LOCAL_DIR here (repeatable).", valueName: "INSTALL_PATH=LOCAL_DIR"))
    var maps: [String] = []

    @Option(help: ArgumentHelp("Read a Caddyfile as this Caddy version does (heredocs and {args[N]} from 2.7, handle_errors status codes from 2.8); default: the installed caddy's, else 2.6.", valueName: "VERSION"))
    var caddyVersion: String?

    @Flag(name: .shortAndLong, help: "Print findings only, no coverage table.")
    var quiet = false

    @OptionGroup var diagnostics: DiagnosticOptions

    func validate() throws {
        if listRules { return }
        guard (1...2).contains(arguments.count) else {
            throw ValidationError("give the configuration file, optionally after the server name: detour check nginx nginx.conf")
        }
        if arguments.count == 2, !Self.dialects.contains(where: { $0.name == arguments[0] }) {
            throw ValidationError("detour check reads nginx and Caddy configurations; '\(arguments[0])' is neither")
        }
        if let caddyVersion, CaddyVersion(caddyVersion) == nil {
            throw ValidationError("--caddy-version takes a version such as 2.6 or 2.8.4, not '\(caddyVersion)'")
        }
        for map in maps where PagePathMap(argument: map) == nil {
            throw ValidationError("--map takes INSTALL_PATH=LOCAL_DIR with an absolute INSTALL_PATH, not '\(map)'")
        }
    }

    func run() throws {
        if listRules {
            print(RuleTable.markdown(Self.catalogue), terminator: "")
            return
        }
        let path = arguments.last ?? ""
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let file = path.hasPrefix("/") ? URL(fileURLWithPath: path) : cwd.appendingPathComponent(path)
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw ValidationError("configuration file '\(path)' does not exist")
        }
        let name = arguments.count == 2 ? arguments[0] : ServerGuess.guess(file).rawValue
        guard let dialect = Self.dialects.first(where: { $0.name == name }) else {
            throw ValidationError("'\(path)' looks like \(name) configuration; detour check reads nginx and Caddy configurations")
        }
        let pagesPath = pages ?? (FileManager.default.fileExists(atPath: cwd.appendingPathComponent("public/errors").path) ? "public/errors" : nil)
        let options = ProxyCheck.Options(
            main: file.standardizedFileURL,
            mainDisplay: path,
            pages: pagesPath.map { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : cwd.appendingPathComponent($0) },
            maps: maps.compactMap { PagePathMap(argument: $0) },
            serverVersion: dialect == CaddyChecker.self ? caddyVersion : nil
        )
        if let pagesPath, PageFolder.codes(in: options.pages).isEmpty {
            throw ValidationError("no <status>.html pages in '\(pagesPath)'; build them with 'detour build' or name the folder with --pages")
        }
        let report = dialect.check(options)
        let status = diagnostics.report(report.diagnostics, catalogue: dialect.catalogue,
                                        extra: ["coverage": report.coverage, "files": report.files])
        if !quiet, diagnostics.format == .text {
            print(CoverageTable.render(report.coverage, pages: pagesPath, files: report.files.count, site: dialect.siteNoun), terminator: "")
        }
        if status != 0 { throw ExitCode(status) }
    }
}
