/// What HAProxy 2.6 (Debian 12's) does, probed from it rather than read in its manual: the
/// error-page builder and the checker both ask here.
public enum HAProxyFacts {
    /// The statuses `errorfile` and `http-error` take; `haproxy -c` refuses any other ("status
    /// code 'N' not handled"). Written by scripts/haproxy-errorfile/probe.sh, which a test runs
    /// against the installed HAProxy.
    public static let errorfileStatuses: Set<Int> = [200, 400, 401, 403, 404, 405, 407, 408, 410, 413, 421, 422, 425, 429, 500, 501, 502, 503, 504]

    /// `200, 400, …, 500–504`: the statuses in order, runs of four or more as ranges.
    public static var errorfileStatusesShown: String {
        var runs: [[Int]] = []
        for status in errorfileStatuses.sorted() {
            if let last = runs.last?.last, last + 1 == status { runs[runs.count - 1].append(status) } else { runs.append([status]) }
        }
        return runs.flatMap { $0.count >= 4 ? ["\($0[0])–\($0[$0.count - 1])"] : $0.map(String.init) }.joined(separator: ", ")
    }
}
