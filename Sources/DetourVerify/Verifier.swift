import DetourDiagnostics
import DetourProxyCore
import DetourSupport
import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// `detour verify`: the real server run on a copy of the user's configuration in a sandbox on
/// 127.0.0.1 (`SandboxPlan`), its upstreams replaced by `FakeUpstream`, every site and route
/// probed under each upstream mode, and the answers judged (`VerifyVerdict`).
public enum Verifier {
    public struct Options: Sendable {
        public var main: URL
        public var mainDisplay: String
        public var pages: URL?
        public var pagesDisplay: String
        public var maps: [PagePathMap]
        public var binary: String?
        /// Seconds one probe may take.
        public var probeTimeout: Double
        /// Seconds the whole run may take.
        public var budget: Double

        public init(
            main: URL, mainDisplay: String, pages: URL?, pagesDisplay: String, maps: [PagePathMap], binary: String?, probeTimeout: Double, budget: Double
        ) {
            self.main = main
            self.mainDisplay = mainDisplay
            self.pages = pages
            self.pagesDisplay = pagesDisplay
            self.maps = maps
            self.binary = binary
            self.probeTimeout = probeTimeout
            self.budget = budget
        }
    }

    public struct Report: Sendable {
        public var diagnostics: [Diagnostic] = []
        /// Each rewrite the sandbox made: where, and what.
        public var rewrites: [(location: SourceLocation, reason: String)] = []
        public var observations: [VerifyObservation] = []
        public var notProbed: [(location: SourceLocation, reason: String)] = []
        /// Why the configuration could not be run, when it could not: detour says so and exits 2.
        public var refusal: String?
    }

    static let methods = SandboxPlan.probedMethods

    /// The modes each route is probed under, the working one first.
    static let modes: [FakeUpstream.Mode] = [
        .answers, .down, .status(500), .status(502), .status(503), .status(504), .silent, .closesMidBody, .malformed,
    ]

    public static func verify(_ server: VerifyServer, _ options: Options) async -> Report {
        // A free port found here may be taken by another program before the server binds it:
        // the run is made again, on other ports.
        var report = await attempt(server, options)
        for _ in 0..<2 where report.refusal?.lowercased().contains("address already in use") == true {
            report = await attempt(server, options)
        }
        return report
    }

    private static func attempt(_ server: VerifyServer, _ options: Options) async -> Report {
        var report = Report()
        guard let binary = server.executable(options.binary) else {
            report.refusal = "\(options.binary ?? server.binary) is not installed here: detour verify runs the real server (--server-binary names it)"
            return report
        }
        let folder: String
        do {
            folder = try Self.makeFolder()
        } catch {
            report.refusal = "cannot make a sandbox folder: \(error)"
            return report
        }
        VerifyCleanup.track(folder: folder)
        defer { VerifyCleanup.remove(folder: folder) }
        let upstream: FakeUpstream
        do {
            upstream = try FakeUpstream()
        } catch {
            report.refusal = "cannot listen on 127.0.0.1 for the fake upstream: \(error)"
            return report
        }
        defer { upstream.stop() }
        let ports = PortPool()
        VerifyCleanup.track(ports)
        // Given back once the server is stopped (the later defer runs first).
        defer { VerifyCleanup.release(ports) }
        let asRoot = getuid() == 0
        var maps = options.maps
        maps = Self.placed(maps, into: folder, copy: asRoot)
        var context = SandboxContext(
            folder: folder, upstream: "127.0.0.1:\(upstream.port)", deadUpstream: "127.0.0.1:\(ports.unused())", maps: maps, asRoot: asRoot,
            serverPrefix: server.prefix(binary), port: { ports.port(for: $0) })
        context.gateways = Dictionary(uniqueKeysWithValues: upstream.gatewayPorts.map { ($0.key.rawValue, "127.0.0.1:\($0.value)") })
        context.admitting = "127.0.0.1:\(upstream.admittingPort)"
        context.certificate = ThrowawayCertificate.write(into: folder)
        context.pageCodes = PageFolder.codes(in: options.pages)
        let plan = server.plan(options.main.standardizedFileURL, options.mainDisplay, context)
        report.rewrites = plan.rewrites.map { ($0.location, $0.reason) }
        report.notProbed = plan.notProbed
        guard plan.blockingFindings.isEmpty else {
            report.diagnostics = plan.blockingFindings
            return report
        }
        let main: String
        do {
            // nginx makes a temporary or cache path's last folder, not its parents.
            for parent in ["temp", "cache"] { try FileManager.default.createDirectory(atPath: folder + "/" + parent, withIntermediateDirectories: true) }
            main = try Self.write(plan, context: context)
        } catch {
            report.refusal = "cannot write the sandbox: \(error)"
            return report
        }
        let environment = server.environment(folder)
        // The state folders the server expects made before it starts (Caddy's HOME, Apache's run and lock folders).
        for state in server.stateFolders.map({ folder + "/" + $0 }) + plan.folders where !Self.crossesLink(state, below: folder) {
            try? FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        }
        // Made only where no link (a mapped folder, when not root) would take the write out of the sandbox.
        for placeholder in plan.placeholders
        where placeholder.file.hasPrefix(folder + "/") && !Self.crossesLink(placeholder.file, below: folder)
            && !FileManager.default.fileExists(atPath: placeholder.file)
        {
            try? FileManager.default.createDirectory(
                atPath: (placeholder.file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            if FileManager.default.createFile(atPath: placeholder.file, contents: Data()) { report.rewrites.append((placeholder.location, placeholder.reason)) }
        }
        guard
            let runnable = VerifyTest.run(
                server, binary: binary, main: main, plan: plan, context: context, mainDisplay: options.mainDisplay, environment: environment, into: &report)
        else { return report }
        // chrt and taskset exec the server in their place: the PID stopped is the server's.
        let command = server.launcher() + [binary] + server.run(runnable, folder) + plan.arguments
        guard
            let process = Self.start(command[0], Array(command.dropFirst()), in: folder, environment: environment, stopSignal: server.stopSignal)
        else {
            report.refusal = "cannot start \(binary)"
            return report
        }
        defer { VerifyCleanup.stop(process) }
        let listening = Set(plan.sites.map(\.port))
        guard await Self.waitUntilListening(listening, while: { process.isRunning }) else {
            // What it said, and what its error log says (Apache writes why it stopped there).
            let said = (["server.out"] + plan.errorLogs).compactMap { try? String(contentsOfFile: folder + "/" + $0, encoding: .utf8) }
            // Named as the user's paths: a copy by its original, the rest of the sandbox as such.
            let output = said.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }.joined(separator: "\n")
                .replacingOccurrences(of: folder + "/root/", with: "/").replacingOccurrences(of: folder, with: "<sandbox>")
            report.refusal = "\(server.name) did not listen on its ports in the sandbox: \(output.suffix(600))"
            return report
        }
        let pages = PageIndex(folder: options.pages, display: options.pagesDisplay)
        let deadline = Date().addingTimeInterval(options.budget)
        for mode in modes {
            guard Date() < deadline else {
                report.notProbed.append((SourceLocation(path: options.mainDisplay), "upstream \(mode): the time budget of \(Int(options.budget)) s ran out"))
                continue
            }
            do {
                try upstream.set(mode)
            } catch {
                report.notProbed.append((SourceLocation(path: options.mainDisplay), "upstream \(mode): \(error)"))
                continue
            }
            report.observations += await probe(
                plan, mode: mode, upstream: upstream, pages: pages, server: server, timeout: options.probeTimeout,
                tries: mode == .closesMidBody ? server.brokenOffTries : 1)
        }
        // Answers the server sends past every page: said once per route, not judged.
        for observation in report.observations {
            guard let why = observation.unreplaceable(in: plan) else { continue }
            let route = plan.sites[observation.site].routes[observation.route]
            let reason = "\(observation.method) \(observation.path), upstream \(observation.mode) → \(observation.status) empty: \(why)"
            if !report.notProbed.contains(where: { $0.location == route.location && $0.reason.hasSuffix(why) }) {
                report.notProbed.append((route.location, reason))
            }
        }
        let logs = plan.errorLogs.compactMap { try? String(contentsOfFile: folder + "/" + $0, encoding: .utf8) }.joined(separator: "\n")
        let logged = VerifyLogFindings.findings(plan, logs: logs, catalogue: server.catalogue)
        // After any refusals another edition of the server lifts (`VerifyTest`).
        report.diagnostics += VerifyVerdict.findings(
            report.observations, plan: plan, dialect: server.name, catalogue: server.catalogue, codes: pages.codes,
            passThroughWithoutPages: server.passThroughWithoutPages, loggedBrokenPages: logged.brokenPages, upstreamPages: logged.upstreamPages)
        report.diagnostics += logged.findings
        return report
    }

    /// Every route of every site under `mode`, at once; each asked up to `tries` times until it
    /// answers with an error.
    private static func probe(
        _ plan: SandboxPlan, mode: FakeUpstream.Mode, upstream: FakeUpstream, pages: PageIndex, server: VerifyServer, timeout: Double, tries: Int
    ) async
        -> [VerifyObservation]
    {
        await withTaskGroup(of: VerifyObservation.self) { group in
            for (siteIndex, site) in plan.sites.enumerated() {
                for (routeIndex, route) in site.routes.enumerated() where route.raises == nil || mode == .answers {
                    // An error page's own URI is read, not posted to.
                    for method in route.page == nil && route.raises == nil ? methods : ["GET"] {
                        group.addTask {
                            let mark = UUID().uuidString
                            let target =
                                plan.marksInHeader ? route.path : route.path + (route.path.contains("?") ? "&" : "?") + FakeUpstream.markParameter + mark
                            let form = method == "POST" ? "detour=probe" : nil
                            var request = HTTPProbe(
                                port: site.port, host: site.host, method: method, path: target, body: form, tls: site.tls, clientAddress: site.clientAddress)
                            if plan.marksInHeader { request.headers = [(SandboxPlan.markHeader, mark)] }
                            var answer = await request.send(seconds: timeout)
                            for _ in 1..<max(tries, 1) where answer.status < 400 { answer = await request.send(seconds: timeout) }
                            let body = Self.whose(answer.body, pages: pages, builtinMark: server.builtinPageMark, failedRead: server.failedReadText)
                            return VerifyObservation(
                                site: siteIndex, route: routeIndex, method: method, mode: mode, host: site.host, port: site.port, tls: site.tls,
                                path: route.path,
                                status: answer.status,
                                body: body, contentType: answer.header("Content-Type"), cacheControl: answer.header("Cache-Control"),
                                retryAfter: answer.header("Retry-After"), reachedUpstream: upstream.wasAsked(mark),
                                headerNames: Set(answer.headers.map { $0.name.lowercased() }))
                        }
                    }
                }
            }
            var observations: [VerifyObservation] = []
            for await observation in group { observations.append(observation) }
            return observations.sorted {
                ($0.site, $0.route, Self.methods.firstIndex(of: $0.method) ?? 0) < ($1.site, $1.route, Self.methods.firstIndex(of: $1.method) ?? 0)
            }
        }
    }

    /// Whose body a visitor got: detour's page, the fake upstream's, the server's built-in
    /// error page (it alone holds `builtinMark`), or the site's own.
    static func whose(_ body: [UInt8], pages: PageIndex, builtinMark: String?, failedRead: String? = nil) -> VerifyObservation.Body {
        if let page = pages.page(body) { return .page(code: page.code, path: page.path) }
        if body.isEmpty { return .empty }
        if let failedRead, body.elementsEqual(failedRead.utf8) { return .failedRead(failedRead) }
        if body.starts(with: FakeUpstream.bodyMark.utf8) { return .upstream }
        guard let builtinMark else { return .site }
        return body.firstRange(of: Array(builtinMark.utf8)) != nil ? .builtin : .site
    }

    // MARK: The sandbox

    private static func makeFolder() throws -> String {
        let base = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        let folder = base + "/detour-verify-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // The server's workers (nobody, under root) make their temporary files inside it.
        chmod(folder, 0o755)
        return folder
    }

    /// Each mapped folder put where an unmapped installed path goes (`unmapped` + its install
    /// path), so that every installed path keeps its place beside the others: an Apache
    /// `<Directory /var/www/>` written around `/var/www/html` still holds the mapped copy. As
    /// root it is copied (the workers, running as nobody, can read it); otherwise linked, unless
    /// another mapped folder holds it (a link would let that one's copy write into it).
    private static func placed(_ maps: [PagePathMap], into folder: String, copy: Bool) -> [PagePathMap] {
        maps.sorted { $0.installPath.count < $1.installPath.count }.map { map in
            let installPath = map.installPath.hasSuffix("/") && map.installPath.count > 1 ? String(map.installPath.dropLast()) : map.installPath
            let target = folder + "/unmapped" + installPath
            let nested = maps.contains { $0.installPath != map.installPath && installPath.hasPrefix($0.installPath) }
            guard installPath.hasPrefix("/"), installPath != "/", copy || !nested else { return map }
            try? FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try? FileManager.default.removeItem(atPath: target)
            let local = URL(fileURLWithPath: map.localPath).standardizedFileURL.path
            if copy {
                guard (try? FileManager.default.copyItem(atPath: local, toPath: target)) != nil else { return map }
                Self.makeReadable(target)
            } else {
                guard (try? FileManager.default.createSymbolicLink(atPath: target, withDestinationPath: local)) != nil else { return map }
            }
            return PagePathMap(installPath: map.installPath, localPath: target)
        }
    }

    /// Whether a folder on the way to `path`, below `folder`, is a symbolic link.
    static func crossesLink(_ path: String, below folder: String) -> Bool {
        var current = path
        while current.hasPrefix(folder + "/") {
            if (try? FileManager.default.attributesOfItem(atPath: current)[.type] as? FileAttributeType) == .typeSymbolicLink { return true }
            current = (current as NSString).deletingLastPathComponent
        }
        return false
    }

    private static func makeReadable(_ root: String) {
        chmod(root, 0o755)
        guard let walker = FileManager.default.enumerator(atPath: root) else { return }
        for case let relative as String in walker {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isFolder)
            chmod(root + "/" + relative, isFolder.boolValue ? 0o755 : 0o644)
        }
    }

    /// Writes each file with its rewrites into the sandbox; the main file's copy.
    private static func write(_ plan: SandboxPlan, context: SandboxContext) throws -> String {
        for (index, file) in plan.files.enumerated() {
            guard case .success(let contents) = FileBytes.read(file.path) else { throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: file.path]) }
            var bytes = contents.bytes
            for rewrite in Self.applicable(plan.rewrites.filter { $0.file == index }, size: bytes.count).reversed() {
                bytes.replaceSubrange(rewrite.range, with: Array(rewrite.text.utf8))
            }
            let copy = context.copy(of: file.path)
            try FileManager.default.createDirectory(atPath: (copy as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: copy))
        }
        if let wrapper = plan.wrapper {
            try FileManager.default.createDirectory(atPath: (wrapper.path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(wrapper.text.utf8).write(to: URL(fileURLWithPath: wrapper.path))
            return wrapper.path
        }
        return context.copy(of: plan.files.first?.path ?? "")
    }

    /// The rewrites in the order of their places, each within the file and after the one
    /// before it: a configuration nginx would refuse may give words that overlap; the first wins.
    static func applicable(_ rewrites: [SandboxPlan.Rewrite], size: Int) -> [SandboxPlan.Rewrite] {
        var kept: [SandboxPlan.Rewrite] = []
        for rewrite in rewrites.sorted(by: { ($0.range.lowerBound, $0.range.upperBound) < ($1.range.lowerBound, $1.range.upperBound) }) {
            guard rewrite.range.upperBound <= size, kept.last.map({ $0.range.upperBound <= rewrite.range.lowerBound }) ?? true else { continue }
            kept.append(rewrite)
        }
        return kept
    }

    // MARK: The server

    /// `binary` with `arguments`, run in `folder`, its output and errors to `output`.
    private static func process(_ binary: String, _ arguments: [String], in folder: String, environment: [String: String], output: Any, errors: Any)
        -> Process
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, sandbox in sandbox }
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        return process
    }

    private static func start(_ binary: String, _ arguments: [String], in folder: String, environment: [String: String], stopSignal: Int32) -> Process? {
        _ = FileManager.default.createFile(atPath: folder + "/server.out", contents: nil)
        guard let output = FileHandle(forWritingAtPath: folder + "/server.out") else { return nil }
        let process = process(binary, arguments, in: folder, environment: environment, output: output, errors: output)
        guard (try? Self.launch(process)) != nil else { return nil }
        VerifyCleanup.track(process, stopSignal: stopSignal)
        return process
    }

    /// Runs `binary` to its end: its status and what it printed (with `separateErrors`, its
    /// standard error apart, in `errors`).
    static func runToEnd(_ binary: String, _ arguments: [String], in folder: String, environment: [String: String] = [:], separateErrors: Bool = false)
        -> (status: Int32, output: String, errors: String)
    {
        let pipe = Pipe()
        // Standard error into a file of the folder it runs in (the sandbox's): two pipes read
        // one after the other can fill and stall.
        let errorsFile = folder + "/.detour-errors-" + UUID().uuidString
        if separateErrors { _ = FileManager.default.createFile(atPath: errorsFile, contents: nil) }
        defer { if separateErrors { try? FileManager.default.removeItem(atPath: errorsFile) } }
        let errorsHandle = separateErrors ? FileHandle(forWritingAtPath: errorsFile) : nil
        let process = process(binary, arguments, in: folder, environment: environment, output: pipe, errors: errorsHandle ?? pipe)
        do {
            try Self.launch(process)
        } catch {
            return (-1, "\(error)", "\(error)")
        }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errors = separateErrors ? (try? String(contentsOfFile: errorsFile, encoding: .utf8)) ?? "" : ""
        return (process.terminationStatus, String(decoding: output, as: UTF8.self), errors)
    }

    /// Starts `process` from a thread of its own that blocks no signal: a server inherits the
    /// mask of the thread that starts it, and the pool's threads block most signals, so one that
    /// keeps the mask it finds (Apache) would never see the SIGTERM that stops it.
    private static func launch(_ process: Process) throws {
        let failure = Mutex<(any Error)?>(nil)
        let started = DispatchSemaphore(value: 0)
        let thread = Thread {
            var nothing = sigset_t()
            sigemptyset(&nothing)
            pthread_sigmask(SIG_SETMASK, &nothing, nil)
            do { try process.run() } catch { failure.withLock { $0 = error } }
            started.signal()
        }
        thread.start()
        started.wait()
        if let error = failure.withLock({ $0 }) { throw error }
    }

    private static func waitUntilListening(_ ports: Set<Int>, while alive: @Sendable () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(10)
        var waiting = ports
        while !waiting.isEmpty, Date() < deadline, alive() {
            for port in waiting where await PortPool.isOpen(port) { waiting.remove(port) }
            if !waiting.isEmpty { try? await Task.sleep(for: .milliseconds(20)) }
        }
        return waiting.isEmpty
    }
}
