import DetourTestSupport
import Foundation
import XCTest

@testable import DetourVerify

/// What the sandbox writes stays in it: a path through a linked mapped folder is not written.
final class SandboxLinkTests: XCTestCase {
    func testAPathThroughALinkedFolderIsSeen() throws {
        let sandbox = try TemporaryFolder()
        defer { sandbox.remove() }
        let outside = try TemporaryFolder()
        defer { outside.remove() }
        try FileManager.default.createDirectory(atPath: sandbox.path + "/unmapped/var", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: sandbox.path + "/unmapped/var/www", withDestinationPath: outside.path)
        XCTAssertTrue(Verifier.crossesLink(sandbox.path + "/unmapped/var/www/html/index.php", below: sandbox.path))
        XCTAssertTrue(Verifier.crossesLink(sandbox.path + "/unmapped/var/www", below: sandbox.path))
        XCTAssertFalse(Verifier.crossesLink(sandbox.path + "/unmapped/var/lib/app/index.php", below: sandbox.path))
    }
}
