import Foundation

extension Array where Element: Sendable {
    /// `map` spread over all cores, results in input order. Pages are independent, so the
    /// build renders and writes them this way.
    public func concurrentMap<Result: Sendable>(_ transform: @Sendable (Element) -> Result) -> [Result] {
        guard count > 1 else { return map(transform) }
        return withUnsafeBufferPointer { elements in
            nonisolated(unsafe) let input = elements
            return concurrentResults(count: input.count) { transform(input[$0]) }
        }
    }
}

extension Array where Element: Sendable {
    /// `concurrentMap` that keeps only the results that are not nil, in order, without a slot
    /// per element: a build's page jobs are hundreds of thousands, of which few report anything.
    public func concurrentCompactMap<Result: Sendable>(_ transform: @Sendable (Element) -> Result?) -> [Result] {
        guard count > 1 else { return compactMap(transform) }
        let chunks = chunkRanges(count: count)
        return withUnsafeBufferPointer { elements in
            nonisolated(unsafe) let input = elements
            return concurrentResults(count: chunks.count) { chunk in chunks[chunk].compactMap { transform(input[$0]) } }.flatMap { $0 }
        }
    }
}

extension Array {
    /// `concurrentMap` that may change each element where it stands, so what a step lets go
    /// of (a file's text once it is parsed) is freed then, not when the whole array is.
    public mutating func concurrentUpdate<Result: Sendable>(_ update: @Sendable (inout Element) -> Result) -> [Result] {
        guard count > 1 else { return indices.map { update(&self[$0]) } }
        return withUnsafeMutableBufferPointer { elements in
            nonisolated(unsafe) let items = elements
            return concurrentResults(count: items.count) { update(&items[$0]) }
        }
    }
}

/// `result(i)` for every `i` below `count`, in contiguous chunks (eight per core, so a slow
/// chunk does not hold up the rest), each written where it belongs in the array returned:
/// no second array of hundreds of thousands of results to copy them from.
private func concurrentResults<Result: Sendable>(count: Int, _ result: @Sendable (Int) -> Result) -> [Result] {
    [Result](unsafeUninitializedCapacity: count) { buffer, initialized in
        nonisolated(unsafe) let slots = buffer
        let chunks = chunkRanges(count: count)
        DispatchQueue.concurrentPerform(iterations: chunks.count) { chunk in
            for index in chunks[chunk] { (slots.baseAddress! + index).initialize(to: result(index)) }
        }
        initialized = count
    }
}

/// `0..<count` cut into contiguous ranges, eight per core (fewer for a short count).
private func chunkRanges(count: Int) -> [Range<Int>] {
    let chunks = Swift.min(count, Cores.count * 8)
    return (0..<chunks).map { chunk in (chunk * count / chunks)..<((chunk + 1) * count / chunks) }
}
