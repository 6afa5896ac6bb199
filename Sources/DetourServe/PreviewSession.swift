import DetourDiagnostics
import DetourSite
import Foundation

/// Runs the builds of one `detour serve`, one at a time: the first in full, then one per batch
/// of saves. Each finished build is told to the browsers, and its findings to the terminal.
final class PreviewSession: Sendable {
    let site: IncrementalBuild
    let reload = LiveReload()
    private let builds = SerialThread(name: "detour-serve-builds")
    /// The search index is rebuilt here, beside the builds: a save made while it is built is
    /// built at once, not after it.
    private let indexQueue = DispatchQueue(label: "detour-serve-search-index")
    private let quiet: Bool

    init(options: BuildOptions, quiet: Bool) {
        site = IncrementalBuild(options: options)
        self.quiet = quiet
    }

    /// The first build, in full, before serving starts; a failed one is served as its findings.
    func buildAll() async {
        await withCheckedContinuation { (built: CheckedContinuation<Void, Never>) in
            builds.async { [self] in
                run(changed: nil)
                built.resume()
            }
        }
    }

    /// The edited page shows first; the search index follows, on its own queue.
    func rebuild(_ changed: Set<String>) {
        builds.async { [self] in
            run(changed: changed)
            guard site.searchIndexIsStale else { return }
            indexQueue.async { [self] in site.refreshSearchIndex() }
        }
    }

    private func run(changed: Set<String>?) {
        let started = DispatchTime.now().uptimeNanoseconds
        // A page written by a good build must not show the last failure while the rest is written.
        let outcome = site.build(changed: changed) { reload.clearFailure() }
        if outcome.changedNothing { return }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        // The terminal has the findings by the time the browser shows them.
        report(outcome, seconds: seconds, first: changed == nil)
        reload.finished(outcome.diagnostics)
    }

    private func report(_ outcome: IncrementalBuild.Outcome, seconds: Double, first: Bool) {
        let shown = outcome.succeeded ? outcome.diagnostics.filter { first && $0.severity == .warning } : outcome.diagnostics
        if !shown.isEmpty { FileHandle.standardError.write(Data(DiagnosticFormat.text.render(shown, toolVersion: "").utf8)) }
        guard !quiet else { return }
        let time = String(format: "%.3f s", seconds)
        let line: String
        if !outcome.succeeded {
            line = first ? "The site did not build (\(time))." : "Not rebuilt (\(time)): the browser shows what to fix over the last good build."
        } else if outcome.full {
            line = first ? "Built the site in \(time)." : "Rebuilt the site in \(time)."
        } else {
            let pages = outcome.rewritten
            line = "Rebuilt " + (pages.count <= 3 ? pages.joined(separator: ", ") : "\(pages[0]) and \(pages.count - 1) more pages") + " in \(time)."
        }
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
