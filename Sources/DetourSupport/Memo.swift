import Synchronization

/// A value worked out on first use and kept: `lazy var` for objects that threads share. Two
/// threads that ask at once may both work it out; they find the same value, and one is kept.
public struct Memo<Value: Sendable>: ~Copyable, Sendable {
    private let slot = Mutex<Value?>(nil)

    public init() {}

    public borrowing func value(_ make: () -> Value) -> Value {
        if let known = slot.withLock({ $0 }) { return known }
        let made = make()
        slot.withLock { $0 = made }
        return made
    }
}
