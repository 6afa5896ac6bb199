import DetourSite
import DetourTestSupport
import Foundation
import XCTest

/// The manifests `detour build` writes into `kubernetes/`: valid for their kinds' published
/// schemas, in step with the service's flags and the image's command, and the image's root
/// filesystem run as the image runs it (its user, read-only).
final class KubernetesManifestTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try SampleSite.shipped()
        XCTAssertEqual(try ProcessRunner.detour(["build", "--quiet"], in: folder.url).status, 0)
    }

    override func tearDown() {
        folder?.remove()
    }

    private func manifest(_ name: String) -> URL { folder.url.appendingPathComponent("public/kubernetes/\(name)") }

    /// The statuses an ingress should hand to the service: those of the built pages that a proxy
    /// replaces from an upstream (server errors, 408, 413), as the snippets do.
    private var replacedStatuses: [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("public/errors/en").path)) ?? []
        let statuses: [Int] = files.compactMap { $0.hasSuffix(".html") ? Int($0.dropLast(5)) : nil }
        return statuses.filter(SnippetTarget.replacedFromUpstream).sorted().map { String($0) }
    }

    /// The Containerfile's `ENTRYPOINT [...]` and `USER uid:gid`.
    private func image() throws -> (command: [String], user: String) {
        let text = try String(contentsOf: Repository.root.appendingPathComponent("Containerfile"), encoding: .utf8)
        let lines = text.split(separator: "\n")
        let entry = try XCTUnwrap(lines.first { $0.hasPrefix("ENTRYPOINT ") })
        let command = try JSONDecoder().decode([String].self, from: Data(entry.dropFirst("ENTRYPOINT ".count).utf8))
        let user = try XCTUnwrap(lines.first { $0.hasPrefix("USER ") }).dropFirst("USER ".count)
        return (command, String(user))
    }

    func testTheTraefikManifestsValidateStrictlyAgainstTheCRDs() throws {
        let traefik = try KubernetesSchema.validate(manifest("traefik.yaml"))
        XCTAssertEqual(traefik.failures, [])
        XCTAssertEqual(traefik.checked.sorted(), ["IngressRoute", "Middleware"])
        // A misspelt field is an error, as the API server's strict field validation makes it.
        let text = try String(contentsOf: manifest("traefik.yaml"), encoding: .utf8)
        try folder.write(["misspelt.yaml": text.replacingOccurrences(of: "    service:\n", with: "    servce:\n")])
        let misspelt = try KubernetesSchema.validate(folder.url.appendingPathComponent("misspelt.yaml"))
        XCTAssertTrue(misspelt.failures.contains { $0.contains("servce") }, "\(misspelt.failures)")
    }

    func testTheManifestsAgreeWithTheServiceAndTheImage() throws {
        let pages = try KubernetesSchema.validate(manifest("detour-pages.yaml"))
        let deployment = try XCTUnwrap(pages.documents.first { $0["kind"]?.string == "Deployment" })
        let service = try XCTUnwrap(pages.documents.first { $0["kind"]?.string == "Service" })
        let container = try XCTUnwrap(deployment["spec", "template", "spec", "containers", 0])
        let port = try XCTUnwrap(container["ports", 0, "containerPort"]?.int)
        let portName = try XCTUnwrap(container["ports", 0, "name"]?.string)
        XCTAssertEqual(service["spec", "ports", 0, "targetPort"]?.string, portName)
        XCTAssertEqual(container["readinessProbe", "httpGet", "port"]?.string, portName)
        XCTAssertEqual(container["livenessProbe", "httpGet", "port"]?.string, portName)
        XCTAssertEqual(container["securityContext", "readOnlyRootFilesystem"], .bool(true))
        XCTAssertEqual(deployment["spec", "template", "spec", "securityContext", "runAsNonRoot"], .bool(true))

        let image = try image()
        XCTAssertEqual(
            deployment["spec", "template", "spec", "securityContext", "runAsUser"]?.int.map(String.init),
            image.user.split(separator: ":").first.map(String.init))
        let portIndex = try XCTUnwrap(image.command.firstIndex(of: "--port"))
        XCTAssertEqual(image.command[portIndex + 1], String(port), "the image listens where the Deployment says")

        let values = try KubernetesSchema.validate(manifest("ingress-nginx-values.yaml"))
        XCTAssertEqual(values.documents.first?["defaultBackend", "port"]?.int, port)
        XCTAssertEqual(values.documents.first?["controller", "config", "custom-http-errors"]?.string, replacedStatuses.joined(separator: ","))

        let traefik = try KubernetesSchema.validate(manifest("traefik.yaml"))
        let middleware = try XCTUnwrap(traefik.documents.first { $0["kind"]?.string == "Middleware" })
        XCTAssertEqual(middleware["spec", "errors", "service", "name"]?.string, service["metadata", "name"]?.string)
        XCTAssertEqual(middleware["spec", "errors", "service", "port"]?.int, service["spec", "ports", 0, "port"]?.int)
        XCTAssertEqual(middleware["spec", "errors", "status"]?.array?.compactMap(\.string), replacedStatuses)
        XCTAssertEqual(middleware["spec", "errors", "query"]?.string, "/{status}")

        // The image's command over this build, on a free port: the probes and a page answer.
        let free = LoopbackPort.free()
        var arguments = Array(image.command.dropFirst()).map { $0 == "/public" ? folder.url.appendingPathComponent("public").path : $0 }
        arguments[portIndex] = String(free)
        let run = try ServerProcess(
            executable: Repository.detourExecutable, arguments + ["--bind", "127.0.0.1"], log: folder.url.appendingPathComponent("image.log"))
        defer { run.stop() }
        XCTAssertTrue(LoopbackPort.waitUntilOpen(free, while: { run.isRunning }), run.log)
        for probe in ["readinessProbe", "livenessProbe"] {
            let path = try XCTUnwrap(container[probe, "httpGet", "path"]?.string)
            XCTAssertEqual(try HTTPClient.get("http://127.0.0.1:\(free)\(path)").status, 200, path)
        }
        XCTAssertEqual(try HTTPClient.get("http://127.0.0.1:\(free)/", headers: ["X-Code": "503"]).status, 503)
    }

    /// The image's root as `scripts/container-root.sh` assembles it, run as the image runs: in a
    /// mount namespace of its own, the root bound read-only, chrooted, as the image's user. The
    /// service answers, and the root is byte for byte what it was.
    func testTheImageRootServesAsItsUserOnAReadOnlyRoot() throws {
        guard getuid() == 0 else {
            if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail("running the image's root needs root (chroot, mounts) under CI=true") }
            throw XCTSkip("running the image's root needs root")
        }
        let root = folder.url.appendingPathComponent("image-root")
        let assembled = try ProcessRunner.run(
            Repository.root.appendingPathComponent("scripts/container-root.sh"),
            [Repository.detourExecutable.path, folder.url.appendingPathComponent("public").path, root.path])
        XCTAssertEqual(assembled.status, 0, assembled.stderr)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("proc"), withIntermediateDirectories: true)
        let before = try ProcessRunner.run(try RequiredTool.find("find"), [root.path, "-printf", "%p %s %T@ %m\n"]).stdout
        let image = try image()
        let port = LoopbackPort.free()
        let command = (image.command.map { $0 == "8080" ? String(port) : $0 } + ["--bind", "127.0.0.1"]).joined(separator: " ")
        let script =
            "mount --bind \(root.path) \(root.path) && mount -o remount,bind,ro \(root.path) && mount -t proc proc \(root.path)/proc"
            + " && exec chroot --userspec=\(image.user) \(root.path) \(command)"
        let server = try ServerProcess(
            "unshare", ["--mount", "--propagation", "private", "sh", "-c", script], log: folder.url.appendingPathComponent("image.log"))
        defer { server.stop() }
        XCTAssertTrue(LoopbackPort.waitUntilOpen(port, while: { server.isRunning }), server.log)
        let page = try HTTPClient.get("http://127.0.0.1:\(port)/", headers: ["X-Code": "502"])
        XCTAssertEqual(page.status, 502)
        XCTAssertTrue(page.body.contains("<h1"), page.body)
        let status = try String(contentsOfFile: "/proc/\(server.pid)/status", encoding: .utf8)
        let uid = image.user.split(separator: ":")[0]
        XCTAssertTrue(status.contains("\nUid:\t\(uid)\t\(uid)\t\(uid)\t\(uid)\n"), "runs as \(image.user): \(status)")
        server.stop()
        XCTAssertEqual(try ProcessRunner.run(try RequiredTool.find("find"), [root.path, "-printf", "%p %s %T@ %m\n"]).stdout, before, "it wrote nothing")
    }
}
