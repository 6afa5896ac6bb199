import DetourDiagnostics
import Foundation
import Synchronization

/// The version of a server a check reads for: the one given on the command line, else the
/// installed server's, asked once and only when a finding depends on it (most configurations
/// never need to), else the version detour's tables come from.
public final class ServerVersionSource<Version: Sendable & CustomStringConvertible>: Sendable {
    /// How a dialect finds its server's version.
    public struct Server: Sendable {
        /// `Caddy`, `HAProxy`: as notes name it.
        public var name: String
        /// The option that reads for another version, `--caddy-version`.
        public var option: String
        /// The command that prints the installed version, and how its output reads.
        public var command: [String]
        public var parse: @Sendable (String) -> Version?
        /// The version read when none is installed.
        public var fallback: Version

        public init(name: String, option: String, command: [String], parse: @escaping @Sendable (String) -> Version?, fallback: Version) {
            (self.name, self.option, self.command, self.parse, self.fallback) = (name, option, command, parse, fallback)
        }
    }

    private let server: Server
    private let given: Version?
    private let found = Mutex<(version: Version, how: String)?>(nil)

    public init(_ server: Server, given: Version?) {
        self.server = server
        self.given = given
    }

    public var version: Version { resolved.version }

    /// The note on a finding the version decides: which version, and why that one.
    public var note: Diagnostic.Note {
        let resolved = resolved
        return Diagnostic.Note("read as \(server.name) \(resolved.version): \(resolved.how); \(server.option) reads for another")
    }

    private var resolved: (version: Version, how: String) {
        if let given { return (given, "\(server.option) \(given)") }
        return found.withLock { known in
            if let known { return known }
            let executable = server.command[0]
            let answer =
                installed().map { ($0, "the installed \(executable) is \($0)") }
                ?? (server.fallback, "no \(executable) is installed, so detour reads for \(server.fallback)")
            known = answer
            return answer
        }
    }

    /// What the command prints, read as a version; nil when the server is not on the PATH.
    private func installed() -> Version? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = server.command
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return server.parse(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
