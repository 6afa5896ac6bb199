import DetourDiagnostics
import DetourNginx
import DetourProxyCore
import Foundation

/// How `detour verify` runs one server: its binary, how it tests and runs a configuration in
/// the sandbox, and the dialect that plans the sandbox and names the findings.
public struct VerifyServer: Sendable {
    public var name: String
    /// The binary looked up on PATH (and in /usr/sbin, where Debian puts servers).
    public var binary: String
    public var catalogue: [RuleDescription]
    /// Bytes only the server's built-in error pages hold.
    public var builtinPageMark: String
    public var plan: @Sendable (_ main: URL, _ display: String, _ context: SandboxContext) -> SandboxPlan
    /// The arguments that test the configuration copied at `main` in the sandbox `folder`.
    public var test: @Sendable (_ main: String, _ folder: String) -> [String]
    /// The arguments that run it in the foreground.
    public var run: @Sendable (_ main: String, _ folder: String) -> [String]
    /// Where its relative paths start, asked of the binary.
    public var prefix: @Sendable (_ binary: String) -> String
    /// What its configuration test said when it refused: findings at the original files' lines,
    /// or what the sandbox lacks (a module), given each file's copy and name and the main file's.
    public var readRefusal:
        @Sendable (_ output: String, _ copies: [(copy: String, display: String)], _ main: String) -> (findings: [Diagnostic], missing: String?)

    public static let nginx = VerifyServer(
        name: "nginx", binary: "nginx", catalogue: NginxChecker.catalogue, builtinPageMark: "<hr><center>nginx",
        plan: { main, display, context in NginxSandbox.plan(main: main, mainDisplay: display, context: context) },
        test: { main, folder in ["-t", "-q"] + nginxArguments(main, folder) },
        run: { main, folder in nginxArguments(main, folder) },
        prefix: { binary in
            // `nginx -V` prints its configure arguments: `--prefix=/usr/share/nginx`.
            let output = Verifier.runToEnd(binary, ["-V"], in: "/").output
            let option = output.split(whereSeparator: \.isWhitespace).first { $0.hasPrefix("--prefix=") }
            return option.map { String($0.dropFirst("--prefix=".count)) } ?? "/usr/local/nginx"
        },
        readRefusal: { output, copies, main in
            let reading = NginxTestOutput.read(output, copies: copies, main: main)
            return (reading.findings, reading.missing)
        })

    /// The servers `detour verify` runs.
    public static let all = [nginx]

    private static func nginxArguments(_ main: String, _ folder: String) -> [String] {
        ["-p", folder + "/", "-c", main, "-e", folder + "/error.log", "-g", "daemon off; master_process on; pid \(folder)/server.pid;"]
    }

    /// The binary to run: `explicit` if given, else the first `binary` on PATH or in the sbin folders.
    public func executable(_ explicit: String?) -> String? {
        if let explicit { return FileManager.default.isExecutableFile(atPath: explicit) ? explicit : nil }
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/sbin", "/usr/local/sbin", "/sbin"]
        return folders.map { $0 + "/" + binary }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
