import ArgumentParser
import DetourContent
import DetourRules
import DetourSite
import Foundation

extension SnippetTarget: ExpressibleByArgument {}

struct SnippetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snippet",
        abstract: "Print a server's error-page snippet, or a complete example configuration.",
        discussion: """
            Servers: nginx (the part for each server block), nginx-http (the part for the http block), nginx-proxy (the part for each location that proxies), caddy, haproxy, apache, varnish (a cache in front of any of them). The snippet is the one 'detour build' writes to public/snippets/, with the pages under --install-path.

            With --example it prints a complete, minimal configuration instead: a reverse proxy from --listen to --upstream with the pages wired in, keeping its pid file, logs and temporary files in --state. It runs as it is, in the foreground:
              nginx -p STATE -c FILE -g 'daemon off;'
              caddy run --config FILE --adapter caddyfile
              haproxy -f FILE -db
              apache2 -f FILE -DFOREGROUND
              varnishd -F -a ADDR:PORT -f FILE -n STATE
            """
    )

    @Argument(help: "nginx, nginx-http, nginx-proxy, caddy, haproxy, apache or varnish.")
    var server: SnippetTarget

    @Option(help: "Where public/ is installed on the server (default: install_path in site.yml).")
    var installPath: String?

    @Flag(help: "Print a complete configuration around the snippet.")
    var example = false

    @Option(help: ArgumentHelp("Address the example listens on.", valueName: "ADDR:PORT"))
    var listen = "127.0.0.1:8080"

    @Option(help: ArgumentHelp("The application the example proxies to.", valueName: "HOST:PORT"))
    var upstream = "127.0.0.1:8000"

    @Option(help: ArgumentHelp("Folder for the example's pid file, logs and temporary files.", valueName: "DIR"))
    var state: String?

    @Option(help: "Folder holding site.yml, codes/ and articles/.")
    var content = "content"

    @Option(help: "Folder of Mustache templates laid over the built-in theme, file by file (default: templates, if present).")
    var templates: String?

    @OptionGroup var diagnostics: DiagnosticOptions

    func validate() throws {
        if let installPath, SiteConfig.installPath(installPath) == nil {
            throw ValidationError("--install-path must be an absolute path of letters, digits, '.', '_', '-' and '/', not '\(installPath)'")
        }
        guard example else { return }
        guard server.exampleTemplate != nil else { throw ValidationError("\(server.rawValue) has no example of its own; use 'detour snippet nginx --example'") }
        guard Self.hostAndPort(listen) != nil else { throw ValidationError("--listen takes ADDR:PORT, such as 127.0.0.1:8080, not '\(listen)'") }
        guard Self.hostAndPort(upstream) != nil else { throw ValidationError("--upstream takes HOST:PORT, such as 127.0.0.1:8000, not '\(upstream)'") }
        guard state != nil else { throw ValidationError("--example needs --state DIR, the folder for the server's pid file, logs and temporary files") }
    }

    func run() throws {
        var exampleSettings: SnippetModel.Example?
        if example, let (host, port) = Self.hostAndPort(listen), let state {
            let cwd = FileManager.default.currentDirectoryPath
            let folder = URL(fileURLWithPath: state.hasPrefix("/") ? state : cwd + "/" + state).standardizedFileURL.path
            exampleSettings = SnippetModel.Example(listenHost: host, listenPort: port, upstream: upstream, stateDirectory: folder)
        }
        let options = BuildOptions(content: content, templates: templates)
        let (text, found) = SnippetPrinter.render(server, installPath: installPath.flatMap(SiteConfig.installPath), example: exampleSettings, options: options)
        let status = diagnostics.report(found, catalogue: RuleBook.contentRules, content: content)
        if let text { print(text.hasSuffix("\n") ? String(text.dropLast()) : text) }
        if status != 0 || text == nil { throw ExitCode(1) }
    }

    /// `127.0.0.1:8080` → host and port; nil unless the port is 1–65535.
    static func hostAndPort(_ text: String) -> (String, Int)? {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (1...65535).contains(port) else { return nil }
        let host = String(text[..<colon])
        guard !host.isEmpty, host.range(of: #"^[A-Za-z0-9.\-\[\]:]+$"#, options: .regularExpression) != nil else { return nil }
        return (host, port)
    }
}
