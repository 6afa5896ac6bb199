/// Reads log lines one at a time and keeps, per article, how many lines and incidents it
/// explains, when the first and last were written, the upstreams named, an example and the
/// first lines; for lines no article explains, how many are routine (`LogRoutine`: a server
/// starting, stopping, reading its configuration) and how often each shape of the others came. A warning or
/// error of a request whose earlier line an article explained (`LogRequest`) counts under that
/// article, as the same incident; so does a line that continues the one before it (a stack
/// trace's, see `LogContinuation`), unexplained with it otherwise.
/// Memory stays bounded however long the log.
public struct Diagnosis: Sendable {
    public let causes: [LogCause]
    private let matcher: LogMatcher
    public private(set) var lines = 0
    /// Lines no article explains and no request failed with (`LogRoutine`): not unexplained.
    public private(set) var routine = 0
    public private(set) var unexplained = 0
    /// Lines longer than `LogLineReader.maximumLength`: counted, not matched.
    public private(set) var overlong = 0
    /// Per cause, what it explains so far; nil until it explains a line.
    private var found: [Found?]
    /// Shapes by a 64-bit hash of their bytes (hashing an array byte by byte through
    /// `Hasher` would cost more than the rest of a line's reading), with their count.
    private var shapes: [UInt64: (shape: [UInt8], count: Int)] = [:]
    /// The shape of the line being read, reused.
    private var shape: [UInt8] = []
    /// Per request and second (`LogRequest.keptKeys`: its connection, thread or child, and the
    /// request it quotes, each with the second), the cause of its last explained line.
    private var requests: [UInt64: Int] = [:]
    /// Requests remembered at once: lines of one incident come within the same second, so
    /// forgetting them all now and then loses at most an incident's later lines.
    static let maximumRequests = 4096
    /// Which lines continue the one before them (a stack trace's), and the cause that
    /// explained the last line that stood alone, if one did.
    private var continuation = LogContinuation()
    private var lastCause: Int?
    /// Whether the last line that stood alone was routine: what continues it is routine too
    /// (HAProxy's `   | While not properly invalid…` after a configuration warning).
    private var lastRoutine = false

    /// Lines each cause keeps to show.
    public static let keptLines = 100
    /// Distinct shapes counted: in a log of endless variety, lines of later shapes count only
    /// as unexplained.
    static let maximumShapes = 10_000
    /// Distinct upstreams counted per cause.
    public static let maximumUpstreams = 20

    /// What one article explains in the log.
    public struct Found: Sendable {
        public var cause: LogCause
        public var count = 0
        /// Failures counted once however many lines each wrote (see `LogRequest`).
        public var incidents = 0
        /// The upstreams and sockets its lines name, with how many lines name each, by the
        /// hash of the name.
        private var upstreamCounts: [UInt64: (name: String, count: Int)] = [:]
        /// The statuses its lines say visitors got (`LogStatus`), with how many lines say each.
        private var statusCounts: [Int: Int] = [:]
        /// The first lines it explains, up to `keptLines`.
        public var lines: [String] = []
        /// Lines of each format that do not continue another: which server wrote most of them.
        private var formatCounts = [Int](repeating: 0, count: LogFormat.allCases.count)
        private(set) var firstTime: (bytes: [UInt8], isEpoch: Bool)?
        /// The latest time seen, its bytes overwritten in place line after line.
        private var lastTime: [UInt8] = []
        private var lastIsEpoch = false

        init(cause: LogCause) {
            self.cause = cause
        }

        /// When the first line it explains was written, as the line says.
        public var first: String? { firstTime.map { LogTime.text($0.bytes, isEpoch: $0.isEpoch) } }
        /// When the last line with a time was written.
        public var last: String? { lastTime.isEmpty ? nil : LogTime.text(lastTime, isEpoch: lastIsEpoch) }

        /// The article's command that confirms the cause, for the server that wrote most of
        /// its lines, with the upstream they name most filled in.
        public var confirmation: String? {
            let most = formatCounts.indices.max { formatCounts[$0] < formatCounts[$1] } ?? 0
            let format = formatCounts[most] > 0 ? LogFormat.allCases[most] : .other
            return cause.confirmation.command(for: format).map { LogConfirmation.filled($0, upstreams: upstreamsByCount.map(\.upstream)) }
        }

        /// The statuses the lines say visitors got, the most lines first.
        public var statusesLogged: [(status: Int, count: Int)] {
            statusCounts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { ($0.key, $0.value) }
        }

        /// The upstreams named, the most lines first.
        public var upstreamsByCount: [(upstream: String, count: Int)] {
            upstreamCounts.values.sorted { $0.count != $1.count ? $0.count > $1.count : $0.name < $1.name }.map { ($0.name, $0.count) }
        }

        /// Counts `line`, of `format`, written at `time`; a companion (a later line of an
        /// incident already counted) names the upstream again, often less fully (`backend:
        /// 127.0.0.1`), so its is not counted.
        mutating func add(_ line: UnsafeBufferPointer<UInt8>, time: LogTime?, format: LogFormat, newIncident: Bool, companion: Bool = false) {
            count += 1
            if newIncident { incidents += 1 }
            if let status = LogStatus.of(line, format: format) { statusCounts[status, default: 0] += 1 }
            if !companion { formatCounts[format.index] += 1 }
            if !companion, let range = LogUpstream.range(in: line, format: format) {
                // By a hash of its bytes: a string is made once per upstream, not per line.
                let key = LogHash.of(line[range])
                if upstreamCounts[key] != nil {
                    upstreamCounts[key]!.count += 1
                } else if upstreamCounts.count < Diagnosis.maximumUpstreams {
                    upstreamCounts[key] = (String(decoding: line[range], as: UTF8.self), 1)
                }
            }
            if lines.count < Diagnosis.keptLines { lines.append(String(decoding: line, as: UTF8.self)) }
            guard let time else { return }
            if firstTime == nil { firstTime = (Array(line[time.range]), time.isEpoch) }
            lastTime.replaceSubrange(lastTime.indices, with: line[time.range])
            lastIsEpoch = time.isEpoch
        }
    }

    public init(causes: [LogCause]) {
        self.causes = causes
        matcher = LogMatcher(causes)
        found = Array(repeating: nil, count: causes.count)
    }

    public mutating func read(_ line: UnsafeBufferPointer<UInt8>) {
        if line.first == UInt8(ascii: " ") || line.first == UInt8(ascii: "\t") || line.isEmpty,
            line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") })
        {
            return
        }
        lines += 1
        // Behind what Docker, Kubernetes or a log store wrote before it, the server's own line.
        let carried = LogTransportPrefix.end(of: line)
        let line = carried > 0 ? UnsafeBufferPointer(rebasing: line[carried...]) : line
        // What the line's structure says is read once, here, and handed to whoever needs it.
        let time = LogTime.of(line)
        let ownStart = LogPrefix.end(of: line, time: time)
        let format = LogFormat.of(line, ownStart: ownStart)
        if continuation.continues(line, ownStart: ownStart) {
            if let cause = lastCause {
                found[cause]!.add(line, time: time, format: format, newIncident: false, companion: true)
            } else if lastRoutine {
                routine += 1
            } else {
                unexplained += 1
            }
            return
        }
        lastCause = nil
        lastRoutine = false
        let request = LogRequest.of(line, time: time)
        // A warning or error of a request an article explained earlier in the same second is
        // part of that incident, whatever it matches alone: the first line says why.
        if let request, request.isProblem, let open = request.lookedUpKeys.lazy.compactMap({ [requests] in requests[$0] }).first {
            // Its other keys join the incident too: PHP-FPM's child, once its request is known.
            remember(request, as: open)
            found[open]!.add(line, time: time, format: format, newIncident: false, companion: true)
            lastCause = open
            return
        }
        // The article whose matching pattern says the most.
        guard let best = matcher.best(line) else {
            if LogRoutine.isRoutine(line, ownStart: ownStart) {
                routine += 1
                lastRoutine = true
                return
            }
            unexplained += 1
            LogShape.write(line, time: time, into: &shape)
            let key = LogShape.hash(shape)
            if shapes[key] != nil {
                shapes[key]!.count += 1
            } else if shapes.count < Self.maximumShapes {
                shapes[key] = (shape, 1)
            }
            return
        }
        if found[best] == nil { found[best] = Found(cause: causes[best]) }
        if let request { remember(request, as: best) }
        found[best]!.add(line, time: time, format: format, newIncident: true)
        lastCause = best
    }

    /// Notes that `request`'s incident is `cause`'s.
    private mutating func remember(_ request: LogRequest, as cause: Int) {
        if requests.count >= Self.maximumRequests { requests.removeAll(keepingCapacity: true) }
        for key in request.keptKeys { requests[key] = cause }
    }

    public mutating func readOverlong() {
        lines += 1
        lastCause = nil
        lastRoutine = false
        overlong += 1
    }

    /// What each article explains, the most lines first.
    public var results: [Found] {
        found.compactMap { $0 }.sorted { $0.count != $1.count ? $0.count > $1.count : $0.cause.slug < $1.cause.slug }
    }

    /// The most frequent shapes of unexplained lines.
    public func topShapes(_ count: Int) -> [(shape: String, count: Int)] {
        shapes.values.map { (String(decoding: $0.shape, as: UTF8.self), $0.count) }
            .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }.prefix(count).map { ($0.0, $0.1) }
    }
}
