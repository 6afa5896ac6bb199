import DetourDiagnostics
import Foundation
import XCTest

/// One server's part in the probing runtime oracle, for the servers whose oracle has not yet
/// moved to `detour verify`'s engine (`OracleRunner`): how to write a configuration, start the
/// real server on it, and ask detour about it.
public protocol ProbingOracleServer {
    /// `nginx`, `caddy`, …: the summary line's word.
    var name: String { get }
    /// The main file's name in the server's folder (`nginx.conf`, `Caddyfile`).
    var mainFile: String { get }
    /// The codes the pages folder has pages for.
    var codes: [Int] { get }
    /// The vocabulary file: every word the generator can write, one per line.
    var vocabulary: URL { get }
    /// A configuration whose sites listen on `port` (or their own), send requests on to
    /// `upstream`, serve the pages of `pages` (its `errors/` folder), and keep their state in `folder`.
    mutating func generate(port: Int, upstream: Int, pages: String, folder: String) -> (text: String, sites: [OracleSite])
    /// Extra page files the server's form needs beside the `.html` ones (HAProxy's raw pages).
    func preparePages(_ folder: URL) throws
    func start(_ main: URL, in folder: TemporaryFolder) throws -> ServerProcess
    /// What detour says, the main file named `mainFile`.
    func check(_ main: URL, pages: URL) -> [Diagnostic]
}

extension ProbingOracleServer {
    public func preparePages(_ folder: URL) throws {}
}

/// Runs `ORACLE_N` generated configurations of one server and compares (`OracleVerdict`):
/// the tally, and every word of the vocabulary the sample never wrote.
public enum ProbingOracleRunner {
    /// The server started again on `text`, written over `main`.
    private static func restarted<Server: ProbingOracleServer>(_ server: Server, _ text: String, _ main: URL, _ state: TemporaryFolder) throws -> ServerProcess
    {
        try state.write([server.mainFile: text])
        return try server.start(main, in: state)
    }

    public static func run<Server: ProbingOracleServer>(_ server: inout Server, file: StaticString = #filePath, line: UInt = #line) throws {
        let upstream = try FakeUpstream(.byPath)
        defer { upstream.stop() }
        let pages = try TemporaryFolder()
        defer { pages.remove() }
        let errors = pages.url.appendingPathComponent("errors")
        try OracleRunner.writePages(server.codes, into: errors)
        try server.preparePages(errors)
        var tally = OracleTally(server: server.name)
        var written = Set<String>()
        for _ in 0..<OracleTally.count {
            let state = try TemporaryFolder()
            defer { state.remove() }
            let port = LoopbackPort.free()
            let generated = server.generate(port: port, upstream: upstream.port, pages: pages.path, folder: state.path)
            for statement in generated.text.split(whereSeparator: { "\n;{".contains($0) }) {
                if let word = statement.split(whereSeparator: { $0 == " " || $0 == "\t" }).first { written.insert(String(word)) }
            }
            try state.write([server.mainFile: generated.text])
            let main = state.url.appendingPathComponent(server.mainFile)
            let process = try server.start(main, in: state)
            defer { process.stop() }
            let diagnostics = server.check(main, pages: errors)
            let ports = Set(generated.sites.map { $0.port ?? port })
            guard ports.allSatisfy({ LoopbackPort.waitUntilOpen($0, while: { process.isRunning }) }) else {
                let refused = diagnostics.contains { $0.severity == .error }
                let others = diagnostics.filter { $0.severity != .error }
                var found: [String] = []
                if !refused { found.append("\(server.name) refused the configuration (\(process.log.suffix(400))); detour reported no error") }
                if refused, !others.isEmpty {
                    found.append("\(server.name) refused the configuration; detour reported more than its refusal: \(others.map(\.message))")
                }
                tally.record(configuration: generated.text, disagreements: found)
                continue
            }
            let live = OracleVerdict.probe(port: port, upstream: upstream, sites: generated.sites)
            process.stop()
            // Again with the upstream dead (nothing listens at its address): the proxy's own
            // 502 or 503. A request meets that failure where it reached the live upstream.
            let dead = try restarted(
                server, generated.text.replacingOccurrences(of: "127.0.0.1:\(upstream.port)", with: "127.0.0.1:\(LoopbackPort.free())"), main, state)
            defer { dead.stop() }
            guard ports.allSatisfy({ LoopbackPort.waitUntilOpen($0, while: { dead.isRunning }) }) else {
                tally.record(
                    configuration: generated.text, disagreements: ["\(server.name) did not start again with the upstream dead: \(dead.log.suffix(400))"])
                continue
            }
            let deadProbes = zip(OracleVerdict.probe(port: port, upstream: upstream, sites: generated.sites), live).map { pair in
                pair.0.map { probe in pair.1.contains { $0.path == probe.path && $0.reachedUpstream } ? probe.meetingTheFailure : probe }
            }
            let sites = generated.sites.indices.map { index in
                OracleVerdict.Site(host: generated.sites[index].host, lines: generated.sites[index].lines, probes: live[index] + deadProbes[index])
            }
            tally.record(
                configuration: generated.text,
                disagreements: OracleVerdict.disagreements(sites: sites, diagnostics: diagnostics, file: server.mainFile, codes: Set(server.codes)))
        }
        try tally.conclude(vocabulary: server.vocabulary, written: written, file: file, line: line)
    }
}
