import ArgumentParser
import CMemory
import DetourServe
import DetourSite
import DetourSupport
import Foundation

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Preview the site: build it, serve it on 127.0.0.1 and rebuild on every save.",
        discussion: """
            Builds into a temporary folder (never over the output folder), serves it at http://127.0.0.1:1313/ and watches <content> and <templates>. A save rebuilds what it touches: a save to existing articles reads only those files and rewrites their pages (and, for a new title, summary, codes or tags, the home, code, tag and search pages and the sitemap), then the search index; anything else (a new or removed article, a new tag, a code, site.yml, a template) rebuilds the site. Open pages reload by themselves. A change that does not build leaves the last good site in place and lays its findings over every page, and over the terminal, until the next good save.

            Error pages are at /errors/<status>.html (and .json, .txt, per language in /errors/<language>/) with their own status; unknown paths get the site's 404 page with status 404. Only files inside the build are served. Links that leave a page (canonical, the error pages' help links) point at the preview.
            """
    )

    @Option(help: "Folder holding site.yml, codes/ and articles/.")
    var content = "content"

    @Option(help: "Folder of Mustache templates laid over the built-in theme, file by file (default: templates, if present).")
    var templates: String?

    @Option(help: "Port to listen on; 0 picks a free one.")
    var port = 1313

    @Option(help: "Address to listen on. Only loopback by default: the preview is for this machine.")
    var bind = "127.0.0.1"

    @Flag(help: "Publish draft articles too.")
    var drafts = false

    @Flag(name: .shortAndLong, help: "Print only findings, not the address and each rebuild.")
    var quiet = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port takes 0 to 65535, not \(port)") }
        if let problem = ServerWait.bindProblem(bind, example: "127.0.0.1") { throw ValidationError(problem) }
    }

    /// Waits on the main thread for its server (`ServerWait`).
    func run() throws {
        // Pages and index files of megabytes come and go: each mapped alone, and given back.
        _ = detour_map_large_blocks(256 * 1024)
        var options = BuildOptions(content: content, templates: templates)
        options.includeDrafts = drafts
        guard FileManager.default.fileExists(atPath: options.content.path) else {
            FileHandle.standardError.write(
                "\(options.contentDisplay): error: [content.missing-folder] content folder '\(options.contentDisplay)' does not exist\n")
            throw ExitCode(1)
        }
        let server = PreviewServer(options: options, bind: bind, port: port, quiet: quiet)
        switch ServerWait.run({ try await server.run() }) {
        case nil:
            return
        case let failure as PreviewServer.Failure:
            FileHandle.standardError.write("detour serve: \(failure)\n")
            throw ExitCode(1)
        case let other?:
            throw other
        }
    }
}
