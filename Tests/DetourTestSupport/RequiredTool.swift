import Foundation
import XCTest

/// Real servers and browsers the end-to-end tests start. A missing one skips the test on a
/// laptop, loudly, but fails it under `CI=true`, where `.ci/run` must have installed it.
public enum RequiredTool {
    public static func find(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> URL {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        for folder in path + ["/usr/sbin", "/sbin"] {
            let url = URL(fileURLWithPath: folder).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        let message = "\(name) is not installed; end-to-end test cannot run"
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            XCTFail(message + " (required under CI=true)", file: file, line: line)
            throw XCTSkip(message)
        }
        print("SKIPPED: " + message)
        throw XCTSkip(message)
    }
}
