/// Reads log lines one at a time and keeps, per article, how many lines it explains, when the
/// first and last were written, an example and the first lines; and, for lines no article
/// explains, how often each shape came. Memory stays bounded however long the log.
public struct Diagnosis: Sendable {
    public let causes: [LogCause]
    public private(set) var lines = 0
    public private(set) var unexplained = 0
    /// Lines longer than `LogLineReader.maximumLength`: counted, not matched.
    public private(set) var overlong = 0
    private var found: [Int: Found] = [:]
    private var shapes: [String: Int] = [:]
    /// Lines of shapes beyond `maximumShapes`.
    public private(set) var otherShapes = 0

    /// Lines each cause keeps to show.
    public static let keptLines = 100
    /// Distinct shapes counted; a log of endless variety counts the rest as `otherShapes`.
    static let maximumShapes = 10_000

    /// What one article explains in the log.
    public struct Found: Sendable {
        public var cause: LogCause
        public var count = 0
        public var first: String?
        public var last: String?
        /// The first lines it explains, up to `keptLines`.
        public var lines: [String] = []
    }

    public init(causes: [LogCause]) {
        self.causes = causes
    }

    public mutating func read(_ line: UnsafeBufferPointer<UInt8>) {
        guard !line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) else { return }
        lines += 1
        // The article whose matching pattern says the most.
        var best: (cause: Int, specificity: Int)?
        for (index, cause) in causes.enumerated() {
            for pattern in cause.patterns where pattern.specificity > best?.specificity ?? -1 && pattern.matches(line) {
                best = (index, pattern.specificity)
            }
        }
        guard let best else {
            unexplained += 1
            let shape = LogShape.of(line)
            if shapes[shape] != nil || shapes.count < Self.maximumShapes {
                shapes[shape, default: 0] += 1
            } else {
                otherShapes += 1
            }
            return
        }
        var entry = found[best.cause] ?? Found(cause: causes[best.cause])
        entry.count += 1
        let time = LogTime.of(line)?.text
        if entry.first == nil { entry.first = time }
        if time != nil { entry.last = time }
        if entry.lines.count < Self.keptLines { entry.lines.append(String(decoding: line, as: UTF8.self)) }
        found[best.cause] = entry
    }

    public mutating func readOverlong() {
        lines += 1
        overlong += 1
    }

    /// What each article explains, the most lines first.
    public var results: [Found] {
        found.values.sorted { $0.count != $1.count ? $0.count > $1.count : $0.cause.slug < $1.cause.slug }
    }

    /// The most frequent shapes of unexplained lines.
    public func topShapes(_ count: Int) -> [(shape: String, count: Int)] {
        shapes.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(count).map { ($0.key, $0.value) }
    }
}
