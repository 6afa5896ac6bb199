import DetourDiagnostics
import DetourProxyCore
import DetourTestSupport
import Foundation
import XCTest

@testable import DetourVarnish

/// The runtime oracle for Varnish: generated VCLs run on the real varnishd, in front of a dead
/// backend and of an application answering 500, and what visitors got is compared with what
/// the model `detour check varnish` decides its findings on says they get. `ORACLE_N` and
/// `ORACLE_SEED` run more or other ones (`make check-oracle`).
final class VarnishOracleTests: XCTestCase {
    /// What a visitor got: the status and whose body.
    struct Seen: Equatable, CustomStringConvertible {
        enum Body: String { case page, guru, empty, application, other }
        var status: Int
        var body: Body
        var description: String { "\(status) \(body)" }
    }

    func testVisitorsGetWhatTheCheckSays() throws {
        let (count, seed) = (OracleTally.count, OracleTally.seed)
        var tally = OracleTally(server: "varnish")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        for code in [500, 503] { try folder.write(["pages/\(code).html": "<h1>detour-page-\(code)</h1>"]) }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path + "/pages")

        // The application first: while varnishd runs, no other child of the test is reaped.
        let appPort = LoopbackPort.free()
        let app = try NginxServer.application(port: appPort, status: 500, body: "app-error")
        defer { app.stop() }
        XCTAssertTrue(LoopbackPort.waitUntilOpen(appPort), app.errorLog)

        var generator = VarnishOracleGenerator(seed: seed, pages: folder.path + "/pages")
        for index in 0..<count {
            let vcl = generator.next(app: appPort, dead: LoopbackPort.free())
            let file = folder.url.appendingPathComponent("case-\(index).vcl")
            try vcl.write(to: file, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
            let options = ProxyCheck.Options(main: file, mainDisplay: "case-\(index).vcl", pages: folder.url.appendingPathComponent("pages"), maps: [])
            let report = VarnishChecker.check(options)
            XCTAssertEqual(report.diagnostics.filter { $0.rule == VarnishRules.syntax.id }, [], vcl)
            let config = VCLConfig.load(main: file, display: options.mainDisplay)
            let context = VarnishCheckContext(pageCodes: PageFolder.codes(in: options.pages), pageFiles: PageFileLookup(maps: []))
            let site = VarnishSite(config, display: options.mainDisplay, in: context)
            let closed = vcl.contains("/closed")
            let seen = try visit(file, in: folder, closed: closed)
            var expected: [String: [Seen]] = [
                "dead backend": Self.predictions(site, .deadBackend),
                "application's 500": Self.predictions(site, .backendStatus(500)),
            ]
            if closed { expected["synth 503"] = Self.predictions(site, .synth(503)) }
            let disagreements = seen.filter { !(expected[$0.key] ?? []).contains($0.value) }.map { what, got in
                "case \(index): \(what) got \(got), detour's model says \((expected[what] ?? []).map(\.description).joined(separator: " or "))\n"
                    + DiagnosticFormat.text.render(report.diagnostics, toolVersion: "test")
            }
            tally.record(configuration: vcl, disagreements: disagreements)
        }
        tally.dump()
        tally.report()
        XCTAssertEqual(tally.disagreements, [], "seed \(seed)")
    }

    /// What the model says a request that meets `trigger` gets: each way's status and body (a
    /// page read with std.fileread, empty where that file is missing; Varnish's page; none;
    /// text of the VCL's own); the backend's own body where vcl_backend_response delivers it.
    static func predictions(_ site: VarnishSite, _ trigger: VarnishResponse.Trigger) -> [Seen] {
        var found: [Seen] = []
        if case .backendStatus(let code) = trigger {
            found += site.passed.filter { $0.code == code }.map { Seen(status: $0.path.status ?? code, body: .application) }
        }
        for response in site.responses where response.trigger == trigger {
            let status = response.status
            guard response.path.action == "deliver" else {
                found.append(Seen(status: status, body: .other))
                continue
            }
            switch response.path.body {
            case .builtin?: found.append(Seen(status: status, body: .guru))
            case nil: found.append(Seen(status: status, body: .empty))
            case .text?: found.append(Seen(status: status, body: .other))
            case .file(let tokens, let read, _)?:
                let variable = response.method == "vcl_synth" ? "resp.status" : "beresp.status"
                let paths = site.values.values(tokens, statusVariable: variable, status: read ?? response.code) ?? []
                if paths.contains(where: { FileManager.default.fileExists(atPath: $0) }) { found.append(Seen(status: status, body: .page)) }
                if paths.contains(where: { !FileManager.default.fileExists(atPath: $0) }) { found.append(Seen(status: status, body: .empty)) }
            }
        }
        return found
    }

    /// Runs the VCL on varnishd and requests each route once (the application's twice).
    private func visit(_ file: URL, in folder: TemporaryFolder, closed: Bool) throws -> [String: Seen] {
        let port = LoopbackPort.free()
        let state = folder.path + "/state-\(file.deletingPathExtension().lastPathComponent)"
        let varnish = try ServerProcess(
            "varnishd", ["-F", "-a", "127.0.0.1:\(port)", "-f", file.path, "-n", state], log: URL(fileURLWithPath: state + ".log"))
        defer { varnish.stop() }
        XCTAssertTrue(LoopbackPort.waitUntilOpen(port), varnish.log)
        var seen: [String: Seen] = [:]
        seen["dead backend"] = Self.seen(LoopbackPort.exchange(port, Self.request("/dead/cart")) ?? "")
        seen["application's 500"] = Self.seen(LoopbackPort.exchange(port, Self.request("/cart")) ?? "")
        if closed { seen["synth 503"] = Self.seen(LoopbackPort.exchange(port, Self.request("/closed")) ?? "") }
        return seen
    }

    static func request(_ path: String) -> String { "GET \(path) HTTP/1.1\r\nHost: shop.test\r\nConnection: close\r\n\r\n" }

    static func seen(_ answer: String) -> Seen {
        let status = Int(answer.dropFirst(9).prefix(3)) ?? 0
        let body = answer.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
        let kind: Seen.Body =
            body.contains("detour-page-")
            ? .page : body.contains("Guru Meditation") ? .guru : body.isEmpty ? .empty : body.contains("app-error") ? .application : .other
        return Seen(status: status, body: kind)
    }
}
