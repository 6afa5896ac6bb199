import DetourDiagnostics
import DetourProxyCore
import Foundation

/// The HAProxy a configuration's keywords are read for: the one given (`--haproxy-version`),
/// else the installed haproxy's, asked only when a line names a keyword 2.6 does not take, else
/// 2.6. The keyword table is 2.6's (Debian 12's): for 2.6 every keyword it does not know is
/// refused, for a newer HAProxy (which knows keywords 2.6 does not) only those HAProxy removed,
/// for an older one (which still takes some of those) none.
public final class HAProxyVersionSource: Sendable {
    public struct Version: Sendable, Comparable, CustomStringConvertible {
        var major: Int
        var minor: Int
        /// Whether the build has QUIC, from `haproxy -vv`'s feature list (`+QUIC`, `-QUIC`);
        /// nil for a version given or not installed.
        var quic: Bool?

        /// `2.6`, `2.8.4`, or `haproxy -vv`'s output (`HAProxy version 2.6.12-1+deb12u4 …`
        /// first, then its feature list).
        public init?(_ text: String) {
            let lines = text.split(separator: "\n")
            let words = (lines.first ?? "").split(separator: " ")
            let word = words.firstIndex(of: "version").flatMap { $0 + 1 < words.count ? words[$0 + 1] : nil } ?? words.first ?? ""
            let parts = word.split(whereSeparator: { $0 == "-" || $0 == "+" }).first?.split(separator: ".") ?? []
            guard (2...3).contains(parts.count), let major = Int(parts[0]), let minor = Int(parts[1]) else { return nil }
            (self.major, self.minor) = (major, minor)
            if let features = lines.first(where: { $0.hasPrefix("Feature list") })?.split(separator: " ") {
                quic = features.contains("+QUIC") ? true : features.contains("-QUIC") ? false : nil
            }
        }

        static let table = Version("2.6")!
        public var description: String { "\(major).\(minor)" }
        public static func == (left: Version, right: Version) -> Bool { (left.major, left.minor) == (right.major, right.minor) }
        public static func < (left: Version, right: Version) -> Bool { (left.major, left.minor) < (right.major, right.minor) }
    }

    private let source: ServerVersionSource<Version>

    public init(_ given: Version? = nil) {
        source = ServerVersionSource(
            .init(
                name: "HAProxy", option: "--haproxy-version", command: ["haproxy", "-vv"], parse: { Version($0) }, fallback: .table), given: given)
    }

    /// Whether a keyword the table does not know is refused (reading for 2.6), and whether
    /// one HAProxy removed is (2.6 or newer).
    var refusesUnknown: Bool { source.version == .table }
    var refusesRemoved: Bool { source.version >= .table }

    /// Whether the build has QUIC (nil: not known); asks the installed haproxy, once.
    var hasQUIC: Bool? { source.version.quic }

    /// The note on a refusal the version decides.
    var note: Diagnostic.Note { source.note }
}
