import DetourLayout
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

    /// The product of this package the image's ENTRYPOINT runs, as the test build made it.
    private func imageExecutable(_ image: (command: [String], user: String)) throws -> URL {
        Repository.executable(try XCTUnwrap(image.command.first.map { URL(fileURLWithPath: $0).lastPathComponent }))
    }

    /// The image's root as `scripts/container-root.sh` assembles it over this build.
    private func imageRoot(_ image: (command: [String], user: String)) throws -> URL {
        let root = folder.url.appendingPathComponent("image-root")
        let assembled = try ProcessRunner.run(
            Repository.root.appendingPathComponent("scripts/container-root.sh"),
            [try imageExecutable(image).path, folder.url.appendingPathComponent("public").path, root.path])
        XCTAssertEqual(assembled.status, 0, assembled.stderr)
        return root
    }

    func testEveryManifestValidatesStrictlyAgainstItsKindsSchema() throws {
        let expected = [
            "detour-pages.yaml": ["Deployment", "Service"], "traefik.yaml": ["IngressRoute", "Middleware"],
            "envoy-gateway.yaml": ["BackendTrafficPolicy"] + Array(repeating: "ConfigMap", count: replacedStatuses.count),
        ]
        for (name, kinds) in expected {
            let result = try KubernetesSchema.validate(manifest(name))
            XCTAssertEqual(result.failures, [], name)
            XCTAssertEqual(result.unchecked, [], "\(name): a kind without a schema here")
            XCTAssertEqual(result.checked.sorted(), kinds.sorted(), name)
        }
        // A misspelt field is an error, as the API server's strict field validation makes it: in a
        // custom resource and in a core kind.
        for (name, right, wrong) in [("traefik.yaml", "    service:\n", "    servce:\n"), ("detour-pages.yaml", "readinessProbe:", "readynessProbe:")] {
            let text = try String(contentsOf: manifest(name), encoding: .utf8)
            XCTAssertTrue(text.contains(right), name)
            try folder.write(["misspelt.yaml": text.replacingOccurrences(of: right, with: wrong)])
            let misspelt = try KubernetesSchema.validate(folder.url.appendingPathComponent("misspelt.yaml"))
            let field = wrong.trimmingCharacters(in: .whitespacesAndNewlines).dropLast()
            XCTAssertTrue(misspelt.failures.contains { $0.contains(field) }, "\(name): \(misspelt.failures)")
        }
    }

    /// Envoy Gateway's policy: one override per replaced status, each naming the ConfigMap that
    /// holds the page; the page read back as Envoy reads a format string is the built file.
    func testEnvoyGatewayServesTheBuiltPagesFromConfigMapsAsEnvoyReadsThem() throws {
        let envoy = try KubernetesSchema.validate(manifest("envoy-gateway.yaml"))
        let policy = try XCTUnwrap(envoy.documents.first { $0["kind"]?.string == "BackendTrafficPolicy" })
        var configMaps: [String: JSONValue] = [:]
        for document in envoy.documents where document["kind"]?.string == "ConfigMap" {
            configMaps[try XCTUnwrap(document["metadata", "name"]?.string)] = document
        }
        let overrides = try XCTUnwrap(policy["spec", "responseOverride"]?.array)
        XCTAssertEqual(overrides.compactMap { $0["match", "statusCodes", 0, "value"]?.int.map(String.init) }, replacedStatuses)
        for override in overrides {
            let status = try XCTUnwrap(override["match", "statusCodes", 0, "value"]?.int)
            XCTAssertNil(override["redirect"], "exactly one of response or redirect")
            XCTAssertNil(override["response", "statusCode"], "the status stays the one answered")
            XCTAssertEqual(override["match", "statusCodes", 0, "type"]?.string, "Value")
            XCTAssertEqual(override["response", "contentType"]?.string, "text/html; charset=utf-8")
            XCTAssertEqual(override["response", "body", "type"]?.string, "ValueRef")
            XCTAssertEqual(override["response", "body", "valueRef", "kind"]?.string, "ConfigMap")
            let name = try XCTUnwrap(override["response", "body", "valueRef", "name"]?.string)
            let configMap = try XCTUnwrap(configMaps[name], "\(status): no ConfigMap \(name)")
            let body = try XCTUnwrap(configMap["data", "response.body"]?.string, "Envoy Gateway reads the key response.body")
            let page = try String(contentsOf: folder.url.appendingPathComponent("public/errors/\(status).html"), encoding: .utf8)
            XCTAssertEqual(Self.envoyFormatString(body), page, "\(status): the page as Envoy writes it")
            XCTAssertLessThan("response.body".utf8.count + body.utf8.count, 1 << 20, "\(name): a ConfigMap's data holds at most 1 MiB")
            let headers = (override["response", "header", "set"]?.array ?? []).compactMap { header in
                header["name"]?.string.flatMap { name in header["value"]?.string.map { (name, $0) } }
            }
            let problem = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.url.appendingPathComponent("public/errors/\(status).json")))
            let retryAfter = ((problem as? [String: Any])?["retry_after"] as? Int).map(String.init)
            XCTAssertEqual(
                Dictionary(uniqueKeysWithValues: headers), ["Cache-Control": "no-store"].merging(retryAfter.map { ["Retry-After": $0] } ?? [:]) { $1 })
        }
        XCTAssertEqual(configMaps.count, overrides.count, "a ConfigMap per page, none left over")
    }

    func testASiteWithNoReplacedErrorHasNothingToApply() throws {
        // Every page a proxy would replace from an upstream turned off: the manifests still build
        // and parse, and hold no document that would catch nothing.
        let codes = folder.url.appendingPathComponent("content/codes")
        for file in try FileManager.default.contentsOfDirectory(atPath: codes.path) {
            guard let status = Int(file.dropLast(4)), SnippetTarget.replacedFromUpstream(status) else { continue }
            let lines = try String(contentsOf: codes.appendingPathComponent(file), encoding: .utf8).split(separator: "\n").filter {
                !$0.hasPrefix("error_page:")
            }
            try (lines + ["error_page: false"]).joined(separator: "\n").write(to: codes.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
        let build = try ProcessRunner.detour(["build", "--quiet"], in: folder.url)
        XCTAssertEqual(build.status, 0, build.stderr)
        XCTAssertEqual(replacedStatuses, [])
        for name in ["traefik.yaml", "envoy-gateway.yaml"] {
            let result = try KubernetesSchema.validate(manifest(name))
            XCTAssertEqual(result.documents.count, 0, name)
            XCTAssertTrue(try String(contentsOf: manifest(name), encoding: .utf8).contains("so nothing to apply"), name)
        }
        let values = try KubernetesSchema.validate(manifest("ingress-nginx-values.yaml"))
        XCTAssertEqual(values.documents.first?["controller", "config", "custom-http-errors"]?.string, "")
        XCTAssertNotNil(values.documents.first?["defaultBackend"], "hosts no rule matches still get the 404 page")
    }

    /// What Envoy writes for a format string of plain text: `%%` is one `%`; nil where another
    /// `%` would start a command (which a page must not hold: Envoy would fill it in or refuse it).
    private static func envoyFormatString(_ text: String) -> String? {
        var out = ""
        var rest = Substring(text)
        while let percent = rest.firstIndex(of: "%") {
            out += rest[..<percent]
            let next = rest.index(after: percent)
            guard next < rest.endIndex, rest[next] == "%" else { return nil }
            out += "%"
            rest = rest[rest.index(after: next)...]
        }
        return out + rest
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
            executable: try imageExecutable(image), arguments + ["--bind", "127.0.0.1"], log: folder.url.appendingPathComponent("image.log"))
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
        let image = try image()
        let root = try imageRoot(image)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("proc"), withIntermediateDirectories: true)
        let before = try ProcessRunner.run(try RequiredTool.find("find"), [root.path, "-printf", "%p %s %T@ %m\n"]).stdout
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

    /// The image itself, built by podman from the Containerfile over the assembled root and run
    /// as a cluster runs it: its own user, a read-only root, no capabilities. On this machine
    /// class crun refuses the hybrid cgroup layout and root may not raise resource limits, so
    /// it runs under runc with cgroupfs and limits no higher than the machine's; the storage is
    /// the test's own. Podman's own additions to a read-only root that a kubelet does not make
    /// (tmpfs on /tmp, the user in /etc/passwd) are turned off, so any file in `podman diff` but
    /// the runtime's /etc is the service's.
    func testThePodmanImageServesThePagesAsItsUserOnAReadOnlyRoot() throws {
        guard getuid() == 0 else {
            if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail("building and running the image needs root under CI=true") }
            throw XCTSkip("building and running the image needs root")
        }
        let podman = try RequiredTool.find("podman")
        _ = try RequiredTool.find("runc")
        let image = try image()
        let root = try imageRoot(image)
        let storage = folder.url.appendingPathComponent("podman")
        // Podman takes a run root of at most 50 characters.
        let runRoot = URL(fileURLWithPath: "/tmp/detour-podman-\(getpid())")
        defer { try? FileManager.default.removeItem(at: runRoot) }
        let options = [
            "--storage-driver", "vfs", "--root", storage.path, "--runroot", runRoot.path,
            "--runtime", "runc", "--cgroup-manager", "cgroupfs",
        ]
        let podmanRun = { (arguments: [String]) throws -> ProcessResult in try ProcessRunner.run(podman, options + arguments) }
        let tag = "localhost/detour-pages-test:\(getpid())"
        let name = "detour-pages-test-\(getpid())"
        let built = try podmanRun(["build", "--isolation", "chroot", "-t", tag, "-f", Repository.root.appendingPathComponent("Containerfile").path, root.path])
        XCTAssertEqual(built.status, 0, built.stderr)
        defer { _ = try? podmanRun(["rmi", "-f", tag]) }
        let port = LoopbackPort.free()
        // Detached, podman's monitor would keep the descriptors this process gives a child, and
        // Foundation's Process would wait for it: Python's subprocess starts podman without them.
        let started = try ProcessRunner.run(
            try RequiredTool.find("python3"),
            [
                "-c", "import subprocess, sys; r = subprocess.run(sys.argv[1:], capture_output=True, text=True); print(r.stderr); sys.exit(r.returncode)",
                podman.path,
            ] + options + [
                "run", "-d", "--name", name, "--network", "host", "--read-only", "--cap-drop", "ALL", "--ulimit", "nofile=4096:4096", "--ulimit",
                "nproc=4096:4096", "--read-only-tmpfs=false", "--passwd=false", tag, "--bind", "127.0.0.1", "--port", String(port),
            ])
        XCTAssertEqual(started.status, 0, started.stdout)
        defer { _ = try? podmanRun(["rm", "-f", name]) }
        XCTAssertTrue(LoopbackPort.waitUntilOpen(port, while: { true }), (try? podmanRun(["logs", name]).stderr) ?? "")
        let page = try HTTPClient.get("http://127.0.0.1:\(port)/", headers: ["X-Code": "502"])
        XCTAssertEqual(page.status, 502)
        XCTAssertEqual(
            page.body,
            try String(contentsOf: folder.url.appendingPathComponent("public/errors/502.html"), encoding: .utf8)
                .replacingOccurrences(of: OutputFormat.requestReferenceMarkup, with: ""))
        let inspected = try podmanRun(["inspect", "--format", "{{.State.Pid}} {{.Config.User}}", name]).stdout.split(separator: " ")
        XCTAssertEqual(inspected.last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }, image.user)
        let pid = try XCTUnwrap(inspected.first.flatMap { Int($0) })
        let uid = image.user.split(separator: ":")[0]
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        XCTAssertTrue(status.contains("\nUid:\t\(uid)\t\(uid)\t\(uid)\t\(uid)\n"), "runs as \(image.user): \(status)")
        // Only /etc, where the runtime mounts hosts, hostname and resolv.conf, as a kubelet does.
        let changed = try podmanRun(["diff", name]).stdout.split(separator: "\n").filter { !$0.hasSuffix(" /etc") }
        XCTAssertEqual(changed, [], "it wrote nothing")
        // SIGTERM, as the kubelet stops a pod: the service drains and exits 0.
        XCTAssertEqual(try podmanRun(["stop", "-t", "10", name]).status, 0)
        XCTAssertEqual(try podmanRun(["inspect", "--format", "{{.State.ExitCode}}", name]).stdout.trimmingCharacters(in: .whitespacesAndNewlines), "0")
    }
}
