import Foundation

/// Waiting for something a real process does in its own time (a log line, a reload, a page), so a
/// test neither sleeps blindly nor races the process it started.
public enum Poll {
    /// Checks `condition` every `interval` seconds until it holds or `timeout` passes; the last
    /// answer is returned, so a caller asserts on it.
    @discardableResult
    public static func until(timeout: TimeInterval = 10, interval: TimeInterval = 0.02, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            usleep(useconds_t(interval * 1_000_000))
        }
        return condition()
    }
}
