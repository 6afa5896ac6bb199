import DetourDiagnostics
import Foundation
import Synchronization

/// A generated site: its host, the lines of the main file it spans, the paths to probe.
public struct OracleSite: Sendable {
    public var host: String
    public var lines: ClosedRange<Int>
    public var paths: [String]
    /// Its own port, where sites are told apart by port rather than by Host.
    public var port: Int?

    public init(host: String, lines: ClosedRange<Int>, paths: [String], port: Int? = nil) {
        self.host = host
        self.lines = lines
        self.paths = paths
        self.port = port
    }
}

/// Compares what detour said about a generated configuration with what the real server's
/// visitors got, site by site: a site detour leaves without an error or warning must answer
/// every probe well, and a site with one must have a probe that went wrong. A configuration
/// the server refused must get a configuration error from detour.
public enum OracleVerdict {
    /// A generated site: its host, the lines of the main file it spans, the probes it got.
    public struct Site {
        public var host: String
        public var lines: ClosedRange<Int>
        public var probes: [OracleProbe]

        public init(host: String, lines: ClosedRange<Int>, probes: [OracleProbe]) {
            self.host = host
            self.lines = lines
            self.probes = probes
        }
    }

    /// The disagreements, each in words; `file` is the main file as detour names it.
    public static func disagreements(sites: [Site], diagnostics: [Diagnostic], file: String, codes: Set<Int>) -> [String] {
        let serious = diagnostics.filter { $0.severity != .note }
        // Findings outside every site (the http block, a snippet, an include) may concern any
        // of them: they excuse a site's bad probe, and some site must have one.
        let outside = serious.filter { diagnostic in
            diagnostic.location.path != file || !sites.contains { $0.lines.contains(diagnostic.location.line) }
        }
        var found: [String] = []
        let anyBad = sites.contains { site in site.probes.contains { !$0.isGood(codes: codes) } }
        if !outside.isEmpty, !anyBad {
            found.append(
                "false alarm: every probe of every site got detour's page, yet detour says "
                    + outside.map { "\($0.location.line): \($0.rule) \($0.message)" }.joined(separator: "; "))
        }
        for site in sites {
            let own = serious.filter { $0.location.path == file && site.lines.contains($0.location.line) }
            let bad = site.probes.filter { !$0.isGood(codes: codes) }
            if !bad.isEmpty, own.isEmpty, outside.isEmpty {
                found.append("missed: detour reports nothing for \(site.host), yet \(bad.map(\.description).joined(separator: "; "))")
            } else if bad.isEmpty, !own.isEmpty {
                found.append(
                    "false alarm: every probe of \(site.host) got detour's page, yet detour says "
                        + own.map { "\($0.location.line): \($0.rule) \($0.message)" }.joined(separator: "; ") + "\nprobes: "
                        + site.probes.map(\.description).joined(separator: "; "))
            }
        }
        return found
    }

    /// The probes of every site, sent at once (a server's timeout is waited for once).
    public static func probe(port: Int, upstream: FakeUpstream, sites: [OracleSite]) -> [[OracleProbe]] {
        let requests = sites.enumerated().flatMap { index, site in site.paths.map { (index, site.host, $0, site.port ?? port) } }
        let results = Mutex<[(Int, Int, OracleProbe)]>([])
        // A thread each: most of a probe is waiting on a timeout or a retry, and
        // concurrentPerform would run only as many at once as there are cores.
        let group = DispatchGroup()
        for (number, request) in requests.enumerated() {
            group.enter()
            Thread.detachNewThread {
                let (site, host, path, port) = request
                let probe = OracleProbe.send(port: port, host: host, path: path, upstream: upstream)
                results.withLock { $0.append((site, number, probe)) }
                group.leave()
            }
        }
        group.wait()
        let sorted = results.withLock { $0 }.sorted { $0.1 < $1.1 }
        return sites.indices.map { index in sorted.filter { $0.0 == index }.map(\.2) }
    }
}
