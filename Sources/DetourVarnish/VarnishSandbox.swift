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
/// command line (`-a`), a free loopback port, asked for `/` and for a path through each
/// `req.url` test (`VarnishSandboxRoutes`).
public enum VarnishSandbox {
    /// The key of the one listen address a VCL's varnishd gets.
    static let listenKey = "varnish -a"

    public static func plan(main: URL, mainDisplay: String, context: SandboxContext) -> SandboxPlan {
        var plan = SandboxPlan()
        plan.marksInHeader = true
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
                let path = include.hasPrefix("/") ? include : (folder as NSString).appendingPathComponent(include).standardizingPath
                // Elsewhere on varnishd's vcl_path (its own VCLs): read there, as the server's.
                guard FileManager.default.fileExists(atPath: path) else { continue }
                // Named as `detour check varnish` names it: `a/../b.vcl` as `b.vcl`.
                let shown =
                    include.hasPrefix("/")
                    ? include
                    : (((mainDisplay as NSString).deletingLastPathComponent as NSString).appendingPathComponent(include) as NSString).standardizingPath
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
        // The backends' timeouts where they set none: varnishd's defaults (60 s to the first
        // byte) would outlast every probe, as a backend's own are shortened.
        let seconds = Int(VarnishSandboxRewriter.timeoutSeconds)
        plan.arguments += ["connect_timeout", "first_byte_timeout", "between_bytes_timeout"].flatMap { ["-p", "\($0)=\(seconds)"] }
        let config = VCLConfig.load(main: main, display: mainDisplay, vclPath: [folder] + VCLConfig.defaultVCLPath)
        let checkContext = VarnishCheckContext(pageCodes: context.pageCodes, pageFiles: PageFileLookup(maps: context.maps))
        let model = VarnishSite(config, display: mainDisplay, in: checkContext)
        // Each finding named where `detour check varnish` names it: by what the request met.
        let upstreamCodes = Set(context.pageCodes + [500, 502, 503, 504])
        let upstreamPlaces = Dictionary(uniqueKeysWithValues: upstreamCodes.map { ($0, model.places(for: .backendStatus($0))) })
        // A form's body goes to the backend once: where the VCL does not keep it, the fetch's
        // first try is its only one (`VarnishSite`'s firstTryOnly).
        let formModel =
            VarnishSite.keepsRequestBodies(config.program)
            ? nil
            : VarnishSite(config, display: mainDisplay, in: checkContext, firstTryOnly: true)
        let formUpstreamPlaces =
            formModel.map { form in
                Dictionary(uniqueKeysWithValues: upstreamCodes.map { ($0, form.places(for: .backendStatus($0))) })
            } ?? [:]
        var routes: [SandboxPlan.Route] = []
        for (route, synth) in [(SandboxPlan.Route(path: "/", location: model.location), nil)] + VarnishSandboxRoutes.routes(config.program) {
            var route = route
            route.places.own = model.places(for: synth.map { .synth($0) } ?? .deadBackend)
            // A pipe this route's requests by a method reach: what passes is named there.
            for method in SandboxPlan.probedMethods where !model.pipes.isEmpty {
                route.passThroughByMethod[method] = VarnishSite.pipes(config.program, method: method, url: route.path).first
            }
            if synth == nil {
                route.places.upstream = upstreamPlaces
                route.places.brokenOff = model.places(for: .brokenOff)
                if let formModel {
                    route.formPlaces = (formModel.places(for: .deadBackend), formUpstreamPlaces)
                }
            }
            routes.append(route)
        }
        // The built-in VCL's own synth answers requests no probe makes (an HTTP/1.1 request
        // without Host: 400; the PRI method: 405): what the VCL's lines do with them is not seen.
        var unseen: [SourceLocation: Set<Int>] = [:]
        for response in model.responses {
            guard case .synth(let at) = response.cause, at.path == VCLConfig.builtinPath else { continue }
            for place in model.places(for: response.trigger).values where place.path != VCLConfig.builtinPath && place != model.location {
                unseen[place, default: []].insert(response.code)
            }
        }
        for (place, codes) in unseen.sorted(by: { $0.key < $1.key }) {
            let names = codes.sorted().map { "synth(\($0))" }.joined(separator: " and ")
            plan.notProbed.append((place, "the built-in VCL's \(names) here: they answer requests no probe makes (without Host, by PRI)"))
        }
        // A backend that breaks its answer off meets vcl_synth's 503 or the answer cut short, a
        // race inside varnishd that the probes retry but cannot decide: where that way ends is
        // judged only where the 503 was met.
        for place in Set(model.places(for: .brokenOff).values) {
            plan.notProbed.append(
                (
                    place,
                    "a backend that breaks its answer off: varnishd answers vcl_synth's 503 or the answer cut short, a race, judged only where the 503 was met"
                ))
        }
        for (at, method) in VarnishSandboxRoutes.methodOnlySynths(config.program) {
            plan.notProbed.append((at, "a synth only a \(method) request reaches: no probe sends one"))
        }
        // vcl_hit runs for a request that found a cached object; each probe is hashed apart.
        var hitReturns: [SourceLocation] = []
        for path in VCLFlow(program: config.program, object: "resp").paths(method: "vcl_hit", status: nil) where path.action == "synth" {
            if let at = path.returnAt, at.path != VCLConfig.builtinPath, !hitReturns.contains(at) { hitReturns.append(at) }
        }
        for at in hitReturns {
            plan.notProbed.append((at, "a synth in vcl_hit: it answers a request that found a cached object, which no probe does"))
        }
        var site = SandboxPlan.Site(host: "127.0.0.1", port: port, location: model.location, routes: routes)
        site.passThroughLocation = model.passThroughPlace
        plan.sites = [site]
        return plan
    }
}
