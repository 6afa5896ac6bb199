import DetourDiagnostics
import Foundation
import Synchronization

/// The HAProxy a configuration's keywords are read for: the one given (`--haproxy-version`),
/// else the installed haproxy's, asked only when a line names a keyword 2.6 does not take, else
/// 2.6. The keyword table is 2.6's (Debian 12's): for 2.6 every keyword it does not know is
/// refused, for a newer HAProxy (which knows keywords 2.6 does not) only those HAProxy removed,
/// for an older one (which still takes some of those) none.
public final class HAProxyVersionSource: Sendable {
    public struct Version: Sendable, Comparable, CustomStringConvertible {
        var major: Int
        var minor: Int

        /// `2.6`, `2.8.4`, or `haproxy -v`'s first line (`HAProxy version 2.6.12-1+deb12u4 …`).
        public init?(_ text: String) {
            let words = text.split(separator: " ")
            let word = words.firstIndex(of: "version").flatMap { $0 + 1 < words.count ? words[$0 + 1] : nil } ?? words.first ?? ""
            let parts = word.split(whereSeparator: { $0 == "-" || $0 == "+" }).first?.split(separator: ".") ?? []
            guard (2...3).contains(parts.count), let major = Int(parts[0]), let minor = Int(parts[1]) else { return nil }
            (self.major, self.minor) = (major, minor)
        }

        static let table = Version("2.6")!
        public var description: String { "\(major).\(minor)" }
        public static func < (left: Version, right: Version) -> Bool { (left.major, left.minor) < (right.major, right.minor) }
    }

    private let given: Version?
    private let found = Mutex<(version: Version, how: String)?>(nil)

    public init(_ given: Version? = nil) {
        self.given = given
    }

    /// Whether a keyword the table does not know is refused (reading for 2.6), and whether
    /// one HAProxy removed is (2.6 or newer).
    var refusesUnknown: Bool { resolved.version == .table }
    var refusesRemoved: Bool { resolved.version >= .table }

    /// The note on a refusal the version decides.
    var note: Diagnostic.Note {
        let resolved = resolved
        return Diagnostic.Note("read as HAProxy \(resolved.version): \(resolved.how); --haproxy-version reads for another")
    }

    private var resolved: (version: Version, how: String) {
        if let given { return (given, "--haproxy-version \(given)") }
        return found.withLock { known in
            if let known { return known }
            let answer = Self.installed().map { ($0, "the installed haproxy is \($0)") } ?? (.table, "no haproxy is installed, so detour reads for 2.6")
            known = answer
            return answer
        }
    }

    /// What `haproxy -v` prints first, or nil when there is no haproxy on the PATH.
    private static func installed() -> Version? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["haproxy", "-v"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return Version(String(decoding: data, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? "")
    }
}
