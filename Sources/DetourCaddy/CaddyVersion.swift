import DetourDiagnostics
import Foundation
import Synchronization

/// The Caddy a Caddyfile is read for. Caddy 2.7 added heredocs and `{args[N]}`; 2.8 added
/// status codes after `handle_errors` and renamed `basicauth`. detour reads 2.6 (Debian 12's)
/// unless told otherwise or another is installed.
public struct CaddyVersion: Sendable, Comparable, CustomStringConvertible {
    public var major: Int
    public var minor: Int

    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    /// `2.7`, `v2.8.4`, `2.6.2 h1:…` (as `caddy version` prints it), `v2.9.0-beta.1`.
    public init?(_ text: String) {
        let word = text.split(separator: " ").first.map { $0.hasPrefix("v") ? $0.dropFirst() : $0 } ?? ""
        let parts = word.split(separator: "-").first?.split(separator: ".") ?? []
        guard parts.count >= 2, parts.count <= 3, let major = Int(parts[0]), let minor = Int(parts[1]),
            parts.count == 2 || Int(parts[2]) != nil
        else { return nil }
        self.init(major: major, minor: minor)
    }

    public static let debian = CaddyVersion(major: 2, minor: 6)

    public var description: String { "\(major).\(minor)" }

    public static func < (left: CaddyVersion, right: CaddyVersion) -> Bool {
        (left.major, left.minor) < (right.major, right.minor)
    }

    var hasHeredocs: Bool { self >= CaddyVersion(major: 2, minor: 7) }
    var hasBracketArguments: Bool { self >= CaddyVersion(major: 2, minor: 7) }
    var takesErrorStatuses: Bool { self >= CaddyVersion(major: 2, minor: 8) }
    /// `root <path>` with no matcher: before 2.8 the path is read as a path matcher.
    var takesRootWithoutMatcher: Bool { self >= CaddyVersion(major: 2, minor: 8) }

    /// The directives a site block takes in this version's standard build.
    var directives: Set<String> {
        var known = CaddyDirectives.known
        if self > .debian { known.insert("tracing") }
        if hasHeredocs { known.insert("invoke") }
        if takesErrorStatuses { known.formUnion(["basic_auth", "fs", "intercept", "log_append", "log_name", "log_skip"]) }
        return known
    }

    /// What `caddy version` prints, or nil when there is no `caddy` on the PATH.
    static func installed() -> CaddyVersion? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["caddy", "version"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return CaddyVersion(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

/// The version a check reads for: the one given, or the installed Caddy's, asked only when a
/// Caddyfile uses something that differs between versions (most never do).
public final class CaddyVersionSource: Sendable {
    private let given: CaddyVersion?
    private let found = Mutex<(version: CaddyVersion, how: String)?>(nil)

    /// `given` nil: `caddy version` when Caddy is installed, else 2.6.
    public init(_ given: CaddyVersion? = nil) {
        self.given = given
    }

    public var version: CaddyVersion { resolved.version }

    /// The note on a finding the version decides: which version, and why that one.
    var note: Diagnostic.Note {
        let resolved = resolved
        return Diagnostic.Note("read as Caddy \(resolved.version): \(resolved.how); --caddy-version reads for another")
    }

    private var resolved: (version: CaddyVersion, how: String) {
        if let given { return (given, "--caddy-version \(given)") }
        return found.withLock { known in
            if let known { return known }
            let answer = CaddyVersion.installed().map { ($0, "the installed caddy is \($0)") } ?? (.debian, "no caddy is installed, so detour reads for 2.6")
            known = answer
            return answer
        }
    }
}
