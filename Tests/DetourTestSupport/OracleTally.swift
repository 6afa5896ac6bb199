import Foundation
import XCTest

/// The runtime oracle's count for one server: configurations run and disagreements, each
/// kept with the configuration and the evidence, printed as one line by `make check-oracle`.
public struct OracleTally: Sendable {
    public let server: String
    public private(set) var configurations = 0
    public private(set) var disagreements: [String] = []

    public init(server: String) {
        self.server = server
    }

    /// How many configurations to run (`ORACLE_N`, else 50: the least that still writes the
    /// whole vocabulary) and from which seed (`ORACLE_SEED`, else a fixed one so CI runs the
    /// same sample each time; `make check-oracle` runs 100 from a new one).
    public static var count: Int { ProcessInfo.processInfo.environment["ORACLE_N"].flatMap { Int($0) } ?? 50 }
    public static var seed: UInt64 { ProcessInfo.processInfo.environment["ORACLE_SEED"].flatMap { UInt64($0) } ?? 2027 }

    /// Reports and dumps the tally, fails on any disagreement, and, for a sample of 50 or more,
    /// on each word of the `vocabulary` file the sample never `written`.
    public func conclude(vocabulary: URL, written: Set<String>, file: StaticString, line: UInt) throws {
        report()
        dump()
        XCTAssertEqual(disagreements.count, 0, disagreements.prefix(3).joined(separator: "\n\n"), file: file, line: line)
        guard Self.count >= 50 else { return }
        let words = try String(contentsOf: vocabulary, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
        for word in words {
            XCTAssertTrue(written.contains(String(word)), "\(word) is in the vocabulary but never generated", file: file, line: line)
        }
    }

    public mutating func record(configuration: String, disagreements found: [String]) {
        configurations += 1
        disagreements += found.map { "\($0)\n--- configuration ---\n\(configuration)" }
    }

    /// Every disagreement in full, with its configuration and probes, into
    /// `ORACLE_DISAGREEMENTS-<server>.txt`, for reducing each to a fixture.
    public func dump() {
        guard let path = ProcessInfo.processInfo.environment["ORACLE_DISAGREEMENTS"] else { return }
        try? disagreements.joined(separator: "\n\n=====\n\n").write(toFile: "\(path)-\(server).txt", atomically: true, encoding: .utf8)
    }

    /// `nginx 100 configurations, 0 disagreements`, appended to `ORACLE_SUMMARY` when set (the
    /// Makefile prints the servers' lines as one, its last).
    public func report() {
        let line = "\(server) \(configurations) configurations, \(disagreements.count) disagreements"
        print(line)
        if let path = ProcessInfo.processInfo.environment["ORACLE_SUMMARY"], let handle = FileHandle(forWritingAtPath: path) {
            handle.seekToEndOfFile()
            handle.write(Data((line + "\n").utf8))
            try? handle.close()
        }
    }
}
