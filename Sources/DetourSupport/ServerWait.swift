import Foundation
import Synchronization

/// What `serve` and `backend` share: an address to listen on, checked as the user wrote it, and
/// a server run to its end while the main thread waits (every other command runs on the main
/// thread, where glibc's main heap serves it fast; a root command run as async would move them
/// all onto pool threads, whose heaps grow in small steps).
public enum ServerWait {
    /// What is wrong with `--bind` as the user wrote it, if anything.
    public static func bindProblem(_ bind: String, example: String) -> String? {
        var probe = in6_addr()
        guard inet_pton(AF_INET, bind, &probe) == 1 || inet_pton(AF_INET6, bind, &probe) == 1 else {
            return "--bind takes an IPv4 or IPv6 address such as \(example), not '\(bind)'"
        }
        return nil
    }

    /// Runs `server` until it returns; the error it ended with, if any.
    public static func run(_ server: sending @escaping () async throws -> Void) -> (any Error)? {
        let failure = Mutex<(any Error)?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Task.detached {
            do {
                try await server()
            } catch {
                failure.withLock { $0 = error }
            }
            finished.signal()
        }
        finished.wait()
        return failure.withLock { $0 }
    }
}
