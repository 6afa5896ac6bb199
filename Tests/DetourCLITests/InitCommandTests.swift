import DetourTestSupport
import Foundation
import XCTest

/// `detour init` as a new user runs it: the starter builds and checks clean as written, and
/// nothing that exists is ever overwritten.
final class InitCommandTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
    }

    override func tearDown() {
        folder.remove()
    }

    func testTheStarterBuildsAndChecksClean() throws {
        let result = try ProcessRunner.detour(["init", "help"], in: folder.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("detour serve"), result.stdout)
        let project = folder.url.appendingPathComponent("help")

        let siteConfig = try String(contentsOf: project.appendingPathComponent("content/site.yml"), encoding: .utf8)
        for field in [
            "name", "base_url", "logo", "colors", "support", "phone", "status_page", "footer", "error_footer", "languages", "raw_html", "install_path",
            "error_path", "auto_retry", "stale_if_error",
        ] {
            XCTAssertTrue(siteConfig.contains("\(field):"), "site.yml explains \(field)")
        }
        let shippedCodes = try FileManager.default.contentsOfDirectory(atPath: Repository.content.path + "/codes").sorted()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: project.path + "/content/codes").sorted(), shippedCodes, "every code detour ships")
        let shippedLanguages = try FileManager.default.contentsOfDirectory(atPath: Repository.content.path + "/translations").sorted()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: project.path + "/content/translations").sorted(), shippedLanguages)
        XCTAssertEqual(try String(contentsOf: project.appendingPathComponent(".gitignore"), encoding: .utf8).contains("/public/"), true)

        // Clean under --strict: no error, no warning.
        let build = try ProcessRunner.detour(["build", "--strict"], in: project)
        XCTAssertEqual(build.status, 0, build.stderr)
        XCTAssertEqual(build.stderr, "")
        XCTAssertTrue(build.stdout.contains("and 2 articles"), build.stdout)
        let codePage = try String(contentsOf: project.appendingPathComponent("public/codes/502/index.html"), encoding: .utf8)
        XCTAssertTrue(codePage.contains("The application behind the proxy is not answering"), "the example article is listed on its code's page")

        // Its own example configurations check clean.
        let state = project.path + "/state"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        for server in ["nginx", "caddy"] {
            let example = try ProcessRunner.detour(
                ["snippet", server, "--example", "--listen", "127.0.0.1:8080", "--upstream", "127.0.0.1:9000", "--state", state], in: project)
            XCTAssertEqual(example.status, 0, example.stderr)
            try example.stdout.write(toFile: project.path + "/\(server).conf", atomically: true, encoding: .utf8)
            let check = try ProcessRunner.detour(["check", server, "\(server).conf", "--map", "/usr/share/detour=public", "--strict"], in: project)
            XCTAssertEqual(check.status, 0, "\(server): \(check.stdout)\(check.stderr)")
        }

        // Its log patterns lead detour diagnose to the example article.
        let line = "2026/01/01 10:00:00 [error] 7#7: *1 connect() failed (111: Connection refused) while connecting to upstream, client: 10.0.0.1"
        let diagnosis = try ProcessRunner.detour(["diagnose", "-"], in: project, input: Data(line.utf8))
        XCTAssertTrue(diagnosis.stdout.contains("https://help.example.com/articles/application-not-answering/"), diagnosis.stdout + diagnosis.stderr)
    }

    /// The README's first steps without a build, or with the pages not installed where the
    /// example points: one error per server names the folder and the `--map` that checks the
    /// local build, and that `--map` checks clean.
    func testAFirstCheckWherePagesAreNotInstalledNamesTheFolderAndTheMap() throws {
        XCTAssertEqual(try ProcessRunner.detour(["init", "help"], in: folder.url).status, 0)
        let project = folder.url.appendingPathComponent("help")
        let installed = folder.path + "/not-installed"
        let servers = ["nginx", "caddy", "haproxy", "apache", "varnish"]
        for server in servers {
            let example = try ProcessRunner.detour(
                ["snippet", server, "--example", "--install-path", installed, "--state", project.path + "/state-\(server)"], in: project)
            XCTAssertEqual(example.status, 0, example.stderr)
            try example.stdout.write(toFile: project.path + "/\(server).conf", atomically: true, encoding: .utf8)
        }
        let advice = [
            "build the site with 'detour build' and check against it with --map \(installed)=public",
            "install public/ there, or check against your local build with --map \(installed)=public",
        ]
        for (built, expected) in [false, true].enumerated() {
            if expected { XCTAssertEqual(try ProcessRunner.detour(["build", "--quiet"], in: project).status, 0) }
            // Caddy's example names its pages by placeholder ({err.status_code}): which codes
            // to look for come from the pages folder, so before the build it has none to miss.
            for server in servers where expected || server != "caddy" {
                let check = try ProcessRunner.detour(["check", server, "\(server).conf", "--quiet"], in: project)
                let output = check.stdout + check.stderr
                let errors = output.split(separator: "\n").filter { $0.contains(": error: ") }
                XCTAssertEqual(errors.count, 1, "\(server): \(output)")
                XCTAssertTrue(
                    errors.first?.contains("[\(server).error-page-missing-file] the pages folder '\(installed)/errors' does not exist here") == true,
                    "\(server): \(output)")
                XCTAssertTrue(errors.first?.contains(advice[built]) == true, "\(server): \(output)")
            }
        }
        for server in servers {
            let check = try ProcessRunner.detour(["check", server, "\(server).conf", "--map", "\(installed)=public", "--strict"], in: project)
            XCTAssertEqual(check.status, 0, "\(server): \(check.stdout)\(check.stderr)")
        }
    }

    func testNothingThatExistsIsOverwritten() throws {
        try folder.write(["content/site.yml": "name: Mine\n"])
        let result = try ProcessRunner.detour(["init"], in: folder.url)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "detour init: content/site.yml already exists; detour init writes a new project and overwrites nothing\n")
        XCTAssertEqual(try folder.read("content/site.yml"), "name: Mine\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path + "/.gitignore"), "nothing at all is written")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path + "/content/codes"))

        // In an empty folder it works, and a second run refuses, naming the file.
        XCTAssertEqual(try ProcessRunner.detour(["init", "fresh"], in: folder.url).status, 0)
        let again = try ProcessRunner.detour(["init", "fresh"], in: folder.url)
        XCTAssertEqual(again.status, 1)
        XCTAssertTrue(again.stderr.contains("fresh/.gitignore already exists"), again.stderr)
    }
}
