import DetourDiagnostics
import DetourProxyCore
import DetourVerify
import Foundation

/// One server's part in the runtime oracle: how to write a configuration and ask detour about it.
/// `detour verify`'s engine runs the real server on it and is the judge.
public protocol OracleServer: Sendable {
    /// `nginx`, `caddy`, …: the summary line's word.
    var name: String { get }
    /// The main file's name in the server's folder (`nginx.conf`, `Caddyfile`).
    var mainFile: String { get }
    /// The codes the pages folder has pages for.
    var codes: [Int] { get }
    /// The vocabulary file: every word the generator can write, one per line.
    var vocabulary: URL { get }
    /// How `detour verify` runs this server.
    var judge: VerifyServer { get }
    /// A configuration whose sites listen on `port` (or their own), send requests on to
    /// `upstream`, serve the pages of `pages` (its `errors/` folder), and keep their state in
    /// `folder`; the files it reads beside the main one by their names (a password file).
    mutating func generate(port: Int, upstream: Int, pages: String, folder: String) -> (text: String, files: [String: String])
    /// Extra page files the server's form needs beside the `.html` ones (HAProxy's raw pages).
    func preparePages(_ folder: URL) throws
    /// What detour says, the main file named `mainFile`.
    func check(_ main: URL, pages: URL) -> [Diagnostic]
}

extension OracleServer {
    public func preparePages(_ folder: URL) throws {}
}

/// Runs `ORACLE_N` generated configurations of one server through `detour check` and through
/// `detour verify`'s engine (the real server in its sandbox, the upstream in each failure
/// mode, every route probed) and counts where they disagree (`CheckAgreement`), with every
/// word of the vocabulary the sample never wrote.
public enum OracleRunner {
    /// Configurations verified at once: most of a run is waiting on a silent upstream's timeout.
    private static let parallel = 2

    /// One generated configuration, in its own folder.
    private struct Case: Sendable {
        var text: String
        var folder: URL
    }

    public static func run<Server: OracleServer>(_ server: inout Server, file: StaticString = #filePath, line: UInt = #line) async throws {
        let pages = try TemporaryFolder()
        defer { pages.remove() }
        let errors = pages.url.appendingPathComponent("errors")
        try writePages(server.codes, into: errors)
        try server.preparePages(errors)
        var written = Set<String>()
        var cases: [Case] = []
        defer { cases.forEach { try? FileManager.default.removeItem(at: $0.folder) } }
        for _ in 0..<OracleTally.count {
            let state = try TemporaryFolder()
            let generated = server.generate(port: LoopbackPort.free(), upstream: LoopbackPort.free(), pages: pages.path, folder: state.path)
            for statement in generated.text.split(whereSeparator: { "\n;{".contains($0) }) {
                // A call's name is its word: `std.cache_req_body(1MB)`.
                if let word = statement.split(whereSeparator: { " \t(".contains($0) }).first { written.insert(String(word)) }
            }
            try state.write(generated.files.merging([server.mainFile: generated.text]) { $1 })
            cases.append(Case(text: generated.text, folder: state.url))
        }
        let judging = server
        let pagesFolder = pages.url
        let queue = cases
        let found = await withTaskGroup(of: (Int, [String]).self) { group in
            var found = [[String]](repeating: [], count: queue.count)
            for (index, item) in queue.enumerated() {
                if index >= parallel, let (done, disagreements) = await group.next() { found[done] = disagreements }
                group.addTask { (index, await disagreements(judging, item, pages: pagesFolder)) }
            }
            for await (done, disagreements) in group { found[done] = disagreements }
            return found
        }
        var tally = OracleTally(server: server.name)
        for (item, disagreements) in zip(cases, found) { tally.record(configuration: item.text, disagreements: disagreements) }
        try tally.conclude(vocabulary: server.vocabulary, written: written, file: file, line: line)
    }

    /// Where check and the real server disagree on one configuration, in words; a run verify
    /// could not make is one.
    private static func disagreements<Server: OracleServer>(_ server: Server, _ item: Case, pages: URL) async -> [String] {
        let main = item.folder.appendingPathComponent(server.mainFile)
        let errors = pages.appendingPathComponent("errors")
        let checked = server.check(main, pages: errors)
        // The pages and the configuration's own folder are read where they are.
        let maps = [pages.path, item.folder.path].map { PagePathMap(installPath: $0, localPath: $0) }
        let options = Verifier.Options(
            main: main, mainDisplay: server.mainFile, pages: errors, pagesDisplay: "errors", maps: maps, binary: nil, probeTimeout: 10, budget: 120)
        let verified = await Verifier.verify(server.judge, options)
        if let refusal = verified.refusal { return ["verify could not run it: \(refusal)"] }
        let evidence = verified.diagnostics.map { "  verify: \($0.location.line): \($0.severity) [\($0.rule)] \($0.message)" }
        return CheckAgreement(server.judge).disagreements(checked: checked, verified: verified).map { disagreement in
            ([disagreement.description] + evidence).joined(separator: "\n")
        }
    }

    /// A page for each code, as detour's generated ones are marked, into `folder`.
    public static func writePages(_ codes: [Int], into folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for code in codes {
            try "<!doctype html><title>\(code)</title><p class=\"detour-page-\(code)\">detour-page-\(code)</p>\n".write(
                to: folder.appendingPathComponent("\(code).html"), atomically: true, encoding: .utf8)
        }
    }
}
