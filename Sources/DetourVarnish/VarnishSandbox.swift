import DetourDiagnostics
import DetourProxyCore
import Foundation

/// `detour verify varnish`: what running a VCL on 127.0.0.1 needs. The VCL and the files it
/// includes (found where varnishd looks: an absolute path, else its `vcl_path`, the main file's
/// folder first) are copied, and only their text changes, in place, line numbers kept: each
/// backend's `.host`/`.port` (or `.path`, a socket) becomes the fake upstream, its `.probe` and
/// `.proxy_header` go (a health check's timing would decide the answers; the fake upstream
/// speaks no PROXY protocol), its timeouts above 3 s become 3 s; an absolute `include` names
/// its copy, and `std.fileread` reads through `--map`. The listen address is varnishd's
/// command line (`-a`), a free loopback port, asked for `/`.
public enum VarnishSandbox {
    /// The key of the one listen address a VCL's varnishd gets.
    static let listenKey = "varnish -a"

    public static func plan(main: URL, mainDisplay: String, context: SandboxContext) -> SandboxPlan {
        var plan = SandboxPlan()
        let folder = main.deletingLastPathComponent().path
        var queue = [(path: main.path, display: mainDisplay)]
        var seen = Set<String>()
        while let file = queue.first {
            queue.removeFirst()
            guard seen.insert(file.path).inserted, let data = FileManager.default.contents(atPath: file.path) else { continue }
            let index = plan.files.count
            plan.files.append(.init(path: file.path, displayPath: file.display))
            var rewriter = VarnishSandboxRewriter(bytes: [UInt8](data), file: index, display: file.display, context: context)
            rewriter.rewrite()
            plan.rewrites += rewriter.rewrites
            for include in rewriter.includes {
                let path = include.hasPrefix("/") ? include : folder + "/" + include
                // Elsewhere on varnishd's vcl_path (its own VCLs): read there, as the server's.
                guard FileManager.default.fileExists(atPath: path) else { continue }
                let shown = include.hasPrefix("/") ? include : ((mainDisplay as NSString).deletingLastPathComponent as NSString).appendingPathComponent(include)
                queue.append((path, shown))
            }
        }
        guard !plan.files.isEmpty else {
            plan.blockingFindings = [.error(VarnishRules.syntax.id, "cannot read '\(mainDisplay)'", at: SourceLocation(path: mainDisplay))]
            return plan
        }
        let port = context.port(listenKey)
        // After a refused connection varnishd waits before it tries that backend again: the
        // probes of the next upstream mode would meet the wait, not the mode.
        plan.arguments = [
            "-a", "127.0.0.1:\(port)", "-p", "vcl_path=\(context.copy(of: folder)):/etc/varnish:/usr/share/varnish/vcl", "-p",
            "backend_remote_error_holddown=0",
        ]
        let site = SourceLocation(path: mainDisplay)
        // What the backend sends is delivered by vcl_backend_response (the built-in one, or the
        // VCL's): findings about it name the VCL, as `detour check varnish` does.
        plan.sites = [.init(host: "127.0.0.1", port: port, location: site, routes: [.init(path: "/", location: site)])]
        return plan
    }
}
