import Glibc

/// Reads a log from a file descriptor in large chunks and hands out its lines without their
/// line break, in constant memory. A line longer than `maximumLength` is handed out as
/// overlong, not as text.
public struct LogLineReader {
    /// Longest line matched; real error lines are far shorter.
    public static let maximumLength = 64 << 10
    private static let chunk = 1 << 20

    public enum Event {
        case line(UnsafeBufferPointer<UInt8>)
        case overlong
    }

    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// Inside a line longer than the limit, skipping to its end.
    private var skipping = false

    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Reads until the end of the data (`follow`: waits for more until `stop` says so), handing
    /// each line to `body`; false when reading failed.
    public mutating func read(follow: Bool = false, until stop: () -> Bool = { false }, _ body: (Event) -> Void) -> Bool {
        var chunk = [UInt8](repeating: 0, count: Self.chunk)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, Self.chunk) }
            if count < 0 {
                if errno == EINTR { continue }
                return false
            }
            if count == 0 {
                if follow, !stop() {
                    usleep(200_000)
                    continue
                }
                if !buffer.isEmpty, !skipping { emit(buffer[...], body) }
                buffer = []
                return true
            }
            buffer += chunk[0..<count]
            split(body)
        }
    }

    /// Hands out every complete line in the buffer, keeping the unfinished rest.
    private mutating func split(_ body: (Event) -> Void) {
        var start = 0
        buffer.withUnsafeBufferPointer { all in
            // memchr: vectorised in the C library, where a Swift loop looks at one byte at a time.
            while start < all.count, let found = memchr(all.baseAddress! + start, Int32(UInt8(ascii: "\n")), all.count - start) {
                let newline = all.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if skipping {
                    skipping = false
                } else {
                    emit(all[start..<newline], body)
                }
                start = newline + 1
            }
        }
        buffer.removeFirst(start)
        if buffer.count > Self.maximumLength {
            if !skipping { body(.overlong) }
            skipping = true
            buffer = []
        }
    }

    private func emit(_ line: Slice<UnsafeBufferPointer<UInt8>>, _ body: (Event) -> Void) {
        var line = line
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        if line.count > Self.maximumLength { return body(.overlong) }
        body(.line(UnsafeBufferPointer(rebasing: line)))
    }

    private func emit(_ line: ArraySlice<UInt8>, _ body: (Event) -> Void) {
        line.withUnsafeBufferPointer { emit($0[...], body) }
    }
}
