import Synchronization

/// The files a check reads, by the index their words carry, as findings name them. The
/// reader appends while the sites already read are checked on other threads, which only look
/// up files those sites came from.
public final class SourceFiles: Sendable {
    private let names = Mutex<[String]>([])

    public init(_ names: [String] = []) {
        self.names.withLock { $0 = names }
    }

    /// Adds a file; its index.
    public func append(_ name: String) -> Int {
        names.withLock { names in
            names.append(name)
            return names.count - 1
        }
    }

    public subscript(index: Int) -> String {
        names.withLock { $0[index] }
    }

    /// Every file read so far, in the order read.
    public var all: [String] { names.withLock { $0 } }
}
