import Foundation
import XCTest

@testable import DetourServe

/// Which file a request path names in the served folder, with links and encodings that try
/// to lead out of it.
final class ServedPathTests: XCTestCase {
    private var base: String!
    private var root: String { base + "/site" }

    override func setUpWithError() throws {
        base = FileManager.default.temporaryDirectory.appendingPathComponent("detour-served-\(UUID().uuidString)").path
        let manager = FileManager.default
        try manager.createDirectory(atPath: root + "/codes/502", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: root + "/empty", withIntermediateDirectories: true)
        try Data("home".utf8).write(to: URL(fileURLWithPath: root + "/index.html"))
        try Data("502".utf8).write(to: URL(fileURLWithPath: root + "/codes/502/index.html"))
        try Data("secret".utf8).write(to: URL(fileURLWithPath: base + "/secret.txt"))
        try manager.createDirectory(atPath: base + "/outside", withIntermediateDirectories: true)
        try Data("outside".utf8).write(to: URL(fileURLWithPath: base + "/outside/index.html"))
        // Links planted in the served folder: out of it, and within it.
        try manager.createSymbolicLink(atPath: root + "/leak.txt", withDestinationPath: base + "/secret.txt")
        try manager.createSymbolicLink(atPath: root + "/leak", withDestinationPath: base + "/outside")
        try manager.createSymbolicLink(atPath: root + "/etc", withDestinationPath: "/etc")
        try manager.createSymbolicLink(atPath: root + "/home.html", withDestinationPath: "index.html")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: base)
    }

    func testPagesAndFolders() {
        XCTAssertEqual(ServedPath.resolve("/", under: root), .file(root + "/index.html"))
        XCTAssertEqual(ServedPath.resolve("/codes/502/", under: root), .file(root + "/codes/502/index.html"))
        XCTAssertEqual(ServedPath.resolve("/codes/%35%302/", under: root), .file(root + "/codes/502/index.html"))
        XCTAssertEqual(ServedPath.resolve("/codes/502", under: root), .redirect("/codes/502/"))
        XCTAssertEqual(ServedPath.resolve("/empty/", under: root), .notFound, "a folder without index.html")
        XCTAssertEqual(ServedPath.resolve("/home.html", under: root), .file(root + "/index.html"), "a link that stays inside is followed")
    }

    func testNothingOutsideTheFolder() {
        let attempts = [
            "/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E/secret.txt", "/codes/../../secret.txt", "/codes/%2e%2e/%2e%2e/secret.txt",
            "/..%2fsecret.txt", "/..%5csecret.txt", "/.%2e/secret.txt", "/leak.txt", "/leak/", "/leak/index.html", "/etc/passwd",
            "/%00", "/index.html%00.txt", base + "/secret.txt", "relative/secret.txt", "/codes/502/%2e", "/%",
        ]
        for attempt in attempts {
            XCTAssertEqual(ServedPath.resolve(attempt, under: root), .notFound, attempt)
        }
    }
}
