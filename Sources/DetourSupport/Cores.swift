import Foundation

/// The cores this process may use, read once: Foundation reads the cgroup's files on each
/// ask, and a build splits work hundreds of times.
public enum Cores {
    public static let count = ProcessInfo.processInfo.activeProcessorCount
}
