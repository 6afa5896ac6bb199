import DetourProxyCore
import Foundation

@testable import DetourVarnish

/// The rule scenarios of `Fixtures/varnish`: each `varnish.vcl` reads its pages from
/// `/fixture/` (this folder, through `--map`) and names its backend's port `FIXTURE_UPSTREAM`.
/// varnishd takes neither, so it runs a copy with both filled in.
enum VarnishFixture {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/varnish")

    static func file(_ scenario: String) -> URL { root.appendingPathComponent(scenario).appendingPathComponent("varnish.vcl") }

    static func check(_ scenario: String) -> ProxyCheck.Report {
        VarnishChecker.check(
            .init(
                main: file(scenario), mainDisplay: "\(scenario)/varnish.vcl", pages: root.appendingPathComponent("pages/errors"),
                maps: [PagePathMap(argument: "/fixture=\(root.path)")!]))
    }

    /// The scenario as varnishd runs it, written to `folder`.
    static func runnable(_ scenario: String, upstream: Int, in folder: URL) throws -> URL {
        let text = try String(contentsOf: file(scenario), encoding: .utf8)
            .replacingOccurrences(of: "/fixture/", with: root.path + "/")
            .replacingOccurrences(of: "FIXTURE_UPSTREAM", with: String(upstream))
        let copy = folder.appendingPathComponent("\(scenario).vcl")
        try text.write(to: copy, atomically: true, encoding: .utf8)
        // varnishd reads the VCL as its own unprivileged user.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy.path)
        return copy
    }
}
