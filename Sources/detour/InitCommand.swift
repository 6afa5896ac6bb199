import ArgumentParser
import DetourInit
import Foundation

struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a starter project: site.yml, logo, every code and translation, two articles.",
        discussion: """
            Writes <dir>/content/site.yml (every field explained), content/logo.svg, content/codes/*.yml and content/translations/*.yml (every code and language detour ships), two example articles under content/articles/, and a .gitignore for public/. The project builds and checks clean as it is.

            Nothing is overwritten: if any of these files exists, nothing is written and the exit status is 1.
            """
    )

    @Argument(help: "Folder of the new project (made if missing).")
    var dir = "."

    func run() throws {
        let folder = URL(fileURLWithPath: dir, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).standardizedFileURL
        let written: [String]
        do {
            written = try StarterProject.write(to: folder, display: dir)
        } catch let failure as StarterProject.Failure {
            FileHandle.standardError.write("detour init: \(failure)\n")
            throw ExitCode(1)
        }
        let place = dir == "." ? "this folder" : dir + "/"
        print(
            """
            Wrote \(written.count) files into \(place). Next, in \(place):
              detour serve          preview at http://127.0.0.1:1313/, rebuilt on every save
              detour build          write the error pages and the help site into public/
              detour snippet nginx  the snippet that wires them into nginx (also caddy, haproxy, apache, varnish)
            Edit content/site.yml first: the name, base_url and colours are an example's.
            """)
    }
}
