/// Elements copied once into memory of their own, which never moves and is never written
/// again until the array is freed. The one door for unsafe memory in detour's checkers.
///
/// Why: a configuration of thousands of sites is read by every core at once, millions of
/// times. Reading through an `Array` or a class counts a reference to the same object from all
/// cores, which costs more than the read; a `View` holds a plain address and counts nothing.
///
/// The lifetime rule: a `View` (and every buffer `View.slice` gives) is valid while its
/// `PinnedArray` is alive. Whoever hands views out keeps the array: a type that stores views
/// also stores the arrays they came from (`NginxConfig` does), and readers hold that type.
///
/// Indices are checked in debug builds, which every test runs; a release build trusts them, as
/// readers ask only for positions their parser wrote (checking each read cost `detour check
/// nginx` 6 % on 5,000 servers).
public final class PinnedArray<Element: Sendable>: Sendable {
    public let view: View

    public init(_ elements: [Element]) {
        let storage = UnsafeMutableBufferPointer<Element>.allocate(capacity: max(1, elements.count))
        _ = storage.initialize(from: elements)
        view = View(base: UnsafePointer(storage.baseAddress!), count: elements.count)
    }

    deinit {
        let storage = UnsafeMutablePointer(mutating: view.base)
        storage.deinitialize(count: view.count)
        storage.deallocate()
    }

    /// The elements by address: no reference is counted to read them. Valid while the array is.
    public struct View: @unchecked Sendable {
        @usableFromInline let base: UnsafePointer<Element>
        public let count: Int

        @usableFromInline init(base: UnsafePointer<Element>, count: Int) {
            self.base = base
            self.count = count
        }

        @inlinable public subscript(index: Int) -> Element {
            assert(index >= 0 && index < count, "index out of range")
            return base[index]
        }

        /// `count` elements from `start`, in place.
        @inlinable public func slice(_ start: Int, count: Int) -> UnsafeBufferPointer<Element> {
            assert(start >= 0 && count >= 0 && start + count <= self.count, "slice out of range")
            return UnsafeBufferPointer(start: base + start, count: count)
        }

        /// Whether both views show the same array.
        @inlinable public func isSame(as other: View) -> Bool { base == other.base }
    }
}
