import DetourApache
import DetourCaddy
import DetourDiagnostics
import DetourHAProxy
import DetourNginx
import DetourProxyCore
import DetourVarnish
import Foundation
import Synchronization

/// How `detour verify` runs one server: its binary, how it tests and runs a configuration in
/// the sandbox, and the dialect that plans the sandbox and names the findings.
public struct VerifyServer: Sendable {
    /// What a server that runs another form of its configuration (Caddy: JSON) made of the
    /// sandboxed copy: the file it runs, or nil with what it said when it refused.
    public struct Prepared: Sendable {
        public var main: String?
        public var output: String = ""
        public var rewrites: [(location: SourceLocation, reason: String)] = []
        public var notProbed: [(location: SourceLocation, reason: String)] = []
    }

    public var name: String
    /// The binary looked up on PATH (and in /usr/sbin, where Debian puts servers).
    public var binary: String
    public var catalogue: [RuleDescription]
    /// Bytes only the server's built-in error pages hold (nil: it has none, its errors are empty).
    public var builtinPageMark: String?
    public var plan: @Sendable (_ main: URL, _ display: String, _ context: SandboxContext) -> SandboxPlan
    /// Turns the copied main file into the one the server runs; nil when it runs the copy.
    public var prepare: (@Sendable (_ binary: String, _ copy: String, _ plan: SandboxPlan, _ context: SandboxContext) -> Prepared)?
    /// The environment its processes get beside the user's (state folders into the sandbox).
    public var environment: @Sendable (_ folder: String) -> [String: String] = { _ in [:] }
    /// Folders of the sandbox made before the server starts, as its packaging makes them.
    public var stateFolders: [String] = []
    /// The arguments that test the configuration copied at `main` in the sandbox `folder`.
    public var test: @Sendable (_ main: String, _ folder: String) -> [String]
    /// The arguments that run it in the foreground.
    public var run: @Sendable (_ main: String, _ folder: String) -> [String]
    /// Where its relative paths start, asked of the binary.
    public var prefix: @Sendable (_ binary: String) -> String
    /// What its configuration test said when it refused: findings at the original files' lines,
    /// or what the sandbox lacks (a module), given each file's copy and name and the main file's.
    public var readRefusal: @Sendable (_ output: String, _ binary: String, _ copies: [(copy: String, display: String)], _ main: String) -> SandboxRefusal
    /// The rules of refusals its test stops at one at a time that blanking the statement lets
    /// it read past (`VerifyTest`): a directive it does not take, a file it cannot include.
    public var blankable: Set<String> = []
    /// The rule of a syntax error its test stops at that blanking the refused line reads past,
    /// when the statement starts on that line and it holds no brace (nothing a blank would
    /// unbalance): nginx, whose statements end at `;`.
    public var lineBlankable: String?
    /// The byte that ends a statement (nginx's `;`); nil where a line does.
    public var statementEnd: UInt8?
    /// The signal that stops it gracefully (nginx and Caddy: SIGQUIT; HAProxy, Apache and Varnish: SIGTERM).
    public var stopSignal: Int32 = SIGQUIT
    /// Whether the upstream's own error body is a pass-through in any site, as the dialect's
    /// check asks every backend (HAProxy, Apache), not only in a site that answers others with pages.
    public var passThroughWithoutPages = false
    /// How often a probe asks while the upstream breaks its answer off, where the server
    /// answering with an error or with the answer cut short is a race (varnishd streams the
    /// fetch: vcl_synth's 503 only when the fetch fails before delivery begins). The error,
    /// once met, is what visitors can get. A backstop where `launcher` cannot settle the race.
    public var brokenOffTries = 1
    /// The whole body a page read that found no file leaves where the server writes one:
    /// varnishd's `synthetic(std.fileread(…))` of a missing file writes the text `(null)`
    /// (std.fileread returns NULL; `set beresp.body` of it leaves the body empty).
    public var failedReadText: String?
    /// The command the server runs under, before its binary (`OneCoreLauncher`); none for most.
    public var launcher: @Sendable () -> [String] = { [] }

    public static let nginx = VerifyServer(
        name: "nginx", binary: "nginx", catalogue: NginxChecker.catalogue, builtinPageMark: "<hr><center>nginx",
        plan: { main, display, context in NginxSandbox.plan(main: main, mainDisplay: display, context: context) },
        test: { main, folder in ["-t", "-q"] + nginxArguments(main, folder) },
        run: { main, folder in nginxArguments(main, folder) },
        prefix: { binary in configureOption("--prefix", of: binary) ?? "/usr/local/nginx" },
        readRefusal: { output, binary, copies, main in
            NginxTestOutput.read(output, copies: copies, main: main, modulesFolder: configureOption("--modules-path", of: binary))
        },
        blankable: ["nginx.directive", "nginx.include-missing"], lineBlankable: "nginx.syntax", statementEnd: UInt8(ascii: ";"))

    /// Caddy adapts the sandboxed Caddyfile to JSON, which `CaddySandboxJSON` rewrites; its
    /// state (autosave, certificates) goes into the sandbox by HOME and the XDG folders.
    public static let caddy = VerifyServer(
        name: "caddy", binary: "caddy", catalogue: CaddyChecker.catalogue, builtinPageMark: nil,
        plan: { main, display, context in CaddySandbox.plan(main: main, mainDisplay: display, context: context) },
        prepare: { binary, copy, plan, context in
            var prepared = Prepared()
            let environment = caddyEnvironment(context.folder)
            let adapted = Verifier.runToEnd(
                binary, ["adapt", "--config", copy, "--adapter", "caddyfile"], in: (copy as NSString).deletingLastPathComponent, environment: environment,
                separateErrors: true)
            guard adapted.status == 0 else {
                prepared.output = adapted.errors
                return prepared
            }
            let main = SourceLocation(path: plan.files.first?.displayPath ?? copy)
            let folder = plan.files.first.map { ($0.path as NSString).deletingLastPathComponent } ?? context.folder
            guard let patched = CaddySandboxJSON.patch(Data(adapted.output.utf8), context: context, configFolder: folder) else {
                prepared.output = "Error: caddy adapt wrote no JSON object: \(adapted.output.prefix(200))"
                return prepared
            }
            let json = context.folder + "/caddy.json"
            guard FileManager.default.createFile(atPath: json, contents: patched.json) else {
                prepared.output = "Error: cannot write \(json)"
                return prepared
            }
            prepared.main = json
            // The JSON's changes are on no line of the Caddyfile.
            prepared.rewrites = patched.rewrites.map { (main, "in the adapted JSON, " + $0) }
            prepared.notProbed = patched.notProbed.map { (main, $0) }
            return prepared
        },
        environment: caddyEnvironment, stateFolders: ["state/data", "state/config", "state/cache"],
        test: { main, _ in ["validate", "--config", main] },
        run: { main, _ in ["run", "--config", main] },
        prefix: { _ in "/" },
        readRefusal: { output, _, copies, main in CaddyTestOutput.read(output, copies: copies, main: main) },
        blankable: ["caddy.directive", "caddy.import"])

    /// HAProxy tests with `-c` and runs in the foreground (`-db`), stopped by SIGTERM; without
    /// SO_REUSEPORT (`-dR`), so a port another program took meanwhile is refused ("Address
    /// already in use", and the run made again) rather than shared.
    public static let haproxy = VerifyServer(
        name: "haproxy", binary: "haproxy", catalogue: HAProxyChecker.catalogue, builtinPageMark: "<html><body><h1>",
        plan: { main, display, context in HAProxySandbox.plan(main: main, mainDisplay: display, context: context) },
        test: { main, _ in ["-c", "-f", main] },
        run: { main, folder in ["-db", "-dR", "-f", main, "-p", folder + "/server.pid"] },
        prefix: { _ in "/" },
        readRefusal: { output, _, copies, main in HAProxyTestOutput.read(output, copies: copies, main: main) },
        stopSignal: SIGTERM, passThroughWithoutPages: true)

    /// varnishd compiles the VCL with `-C` and runs in the foreground (`-F`) on the listen
    /// address the plan gives (`-a`), its state in the sandbox (`-n`); without root, in no jail.
    public static let varnish = VerifyServer(
        name: "varnish", binary: "varnishd", catalogue: VarnishChecker.catalogue, builtinPageMark: "<h1>Error ",
        plan: { main, display, context in VarnishSandbox.plan(main: main, mainDisplay: display, context: context) },
        test: { main, folder in ["-C", "-f", main, "-n", folder + "/varnish-test"] + varnishJail },
        run: { main, folder in ["-F", "-f", main, "-n", folder + "/varnish", "-s", "malloc,32m", "-P", folder + "/server.pid"] + varnishJail },
        prefix: { _ in "/" },
        readRefusal: { output, _, copies, main in VarnishTestOutput.read(output, copies: copies, main: main) },
        stopSignal: SIGTERM, passThroughWithoutPages: true, brokenOffTries: 6, failedReadText: "(null)", launcher: OneCoreLauncher.prefix)

    /// As root varnishd runs its workers as its own users, as Debian does; otherwise it cannot switch.
    private static var varnishJail: [String] { getuid() == 0 ? [] : ["-j", "none"] }

    /// Apache runs as Debian's apache2ctl runs it: its `envvars` into the sandbox, the run, lock
    /// and log folders made, ServerRoot given by the plan (`-d`), in the foreground.
    public static let apache = VerifyServer(
        name: "apache", binary: "apache2", catalogue: ApacheChecker.catalogue, builtinPageMark: "</title>\n</head><body>\n<h1>",
        plan: { main, display, context in ApacheSandbox.plan(main: main, mainDisplay: display, context: context) },
        environment: { folder in ApacheSandbox.environment(folder: folder, asRoot: getuid() == 0) }, stateFolders: ["run", "lock", "log"],
        test: { main, _ in ["-t", "-f", main] },
        run: { main, _ in ["-f", main, "-DFOREGROUND"] },
        prefix: { _ in "/" },
        readRefusal: { output, _, copies, main in ApacheTestOutput.read(output, copies: copies, main: main) },
        stopSignal: SIGTERM, passThroughWithoutPages: true)

    /// The servers `detour verify` runs.
    public static let all = [nginx, caddy, haproxy, apache, varnish]

    /// What `nginx -V` printed, by binary: asked once a run, though every refusal read needs it.
    private static let configureOutputs = Mutex<[String: String]>([:])

    /// An option nginx was built with, as `nginx -V` prints its configure arguments
    /// (`--prefix=/usr/share/nginx`, `--modules-path=/usr/lib/nginx/modules`).
    private static func configureOption(_ name: String, of binary: String) -> String? {
        let output = configureOutputs.withLock { $0[binary] } ?? Verifier.runToEnd(binary, ["-V"], in: "/").output
        configureOutputs.withLock { $0[binary] = output }
        let option = output.split(whereSeparator: \.isWhitespace).first { $0.hasPrefix(name + "=") }
        return option.map { String($0.dropFirst(name.count + 1)) }
    }

    private static func nginxArguments(_ main: String, _ folder: String) -> [String] {
        ["-p", folder + "/", "-c", main, "-e", folder + "/error.log", "-g", "daemon off; master_process on; pid \(folder)/server.pid;"]
    }

    @Sendable private static func caddyEnvironment(_ folder: String) -> [String: String] {
        let state = folder + "/state"
        return ["HOME": state, "XDG_DATA_HOME": state + "/data", "XDG_CONFIG_HOME": state + "/config", "XDG_CACHE_HOME": state + "/cache"]
    }

    /// The binary to run: `explicit` if given, else the first `binary` on PATH or in the sbin folders.
    public func executable(_ explicit: String?) -> String? {
        if let explicit { return FileManager.default.isExecutableFile(atPath: explicit) ? explicit : nil }
        return ExecutableLookup.first(binary, alsoIn: ["/usr/sbin", "/usr/local/sbin", "/sbin"])
    }
}
