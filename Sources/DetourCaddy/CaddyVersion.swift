import DetourDiagnostics
import DetourProxyCore
import Foundation

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
}

/// The Caddy a check reads for: the one given, or the installed Caddy's (`caddy version`),
/// asked only when a Caddyfile uses something that differs between versions, else 2.6.
public typealias CaddyVersionSource = ServerVersionSource<CaddyVersion>

extension ServerVersionSource where Version == CaddyVersion {
    public convenience init(_ given: CaddyVersion? = nil) {
        self.init(
            .init(name: "Caddy", option: "--caddy-version", command: ["caddy", "version"], parse: { CaddyVersion($0) }, fallback: .debian), given: given)
    }
}
