import Synchronization

/// Counts for Prometheus' `/metrics`: pages served by status, format and language, and
/// requests refused with 400.
final class BackendMetrics: Sendable {
    struct Key: Hashable, Comparable {
        var status: Int
        var format: String
        var language: String

        static func < (left: Key, right: Key) -> Bool {
            (left.status, left.format, left.language) < (right.status, right.format, right.language)
        }
    }

    private let counts = Mutex<(served: [Key: Int], refused: Int)>(([:], 0))

    func served(_ key: Key) { counts.withLock { $0.served[key, default: 0] += 1 } }
    func refused() { counts.withLock { $0.refused += 1 } }

    /// The text exposition format, version 0.0.4.
    var exposition: String {
        let (served, refused) = counts.withLock { ($0.served, $0.refused) }
        var out = "# HELP detour_backend_pages_total Error pages served, by status, format and language.\n"
        out += "# TYPE detour_backend_pages_total counter\n"
        for (key, count) in served.sorted(by: { $0.key < $1.key }) {
            out += "detour_backend_pages_total{status=\"\(key.status)\",format=\"\(key.format)\",language=\"\(key.language)\"} \(count)\n"
        }
        out += "# HELP detour_backend_refused_total Requests answered 400: a status header that is no error status.\n"
        out += "# TYPE detour_backend_refused_total counter\n"
        out += "detour_backend_refused_total \(refused)\n"
        return out
    }
}
