import Foundation

extension Array where Element: Sendable {
    /// `map` spread over all cores, results in input order. Pages are independent, so the
    /// build renders and writes them this way.
    public func concurrentMap<Result: Sendable>(_ transform: @Sendable (Element) -> Result) -> [Result] {
        guard count > 1 else { return map(transform) }
        let buffer = UnsafeMutableBufferPointer<Result?>.allocate(capacity: count)
        buffer.initialize(repeating: nil)
        defer {
            buffer.deinitialize()
            buffer.deallocate()
        }
        nonisolated(unsafe) let slots = buffer
        let chunks = Swift.min(count, ProcessInfo.processInfo.activeProcessorCount * 8)
        self.withUnsafeBufferPointer { elements in
            nonisolated(unsafe) let input = elements
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                let start = chunk * input.count / chunks
                let end = (chunk + 1) * input.count / chunks
                for index in start..<end { slots[index] = transform(input[index]) }
            }
        }
        return buffer.map { $0! }
    }
}
