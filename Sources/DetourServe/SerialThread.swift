import Foundation
import Synchronization

/// Runs jobs one after another on a thread of its own, outside libdispatch's pool. A build
/// spreads its pages over that pool (`concurrentPerform`) while the search index takes one of
/// its threads; run from a pool thread, as a serial queue runs it, the build itself holds
/// another, and on two cores its pages get one thread where `detour build`, run from the main
/// thread, gets two.
final class SerialThread: Sendable {
    private final class Jobs: Sendable {
        /// Jobs not yet started; nil tells the thread to end.
        let waiting = Mutex<[(@Sendable () -> Void)?]>([])
        let ready = DispatchSemaphore(value: 0)

        func add(_ job: (@Sendable () -> Void)?) {
            waiting.withLock { $0.append(job) }
            ready.signal()
        }

        func next() -> (@Sendable () -> Void)? {
            ready.wait()
            return waiting.withLock { $0.removeFirst() }
        }
    }

    private let jobs = Jobs()

    init(name: String) {
        let thread = Thread { [jobs] in
            while let job = jobs.next() { job() }
        }
        thread.name = name
        // As much stack as the main thread, where `detour build` runs the same work.
        thread.stackSize = 8 << 20
        thread.start()
    }

    deinit {
        jobs.add(nil)
    }

    func async(_ job: @escaping @Sendable () -> Void) {
        jobs.add(job)
    }
}
