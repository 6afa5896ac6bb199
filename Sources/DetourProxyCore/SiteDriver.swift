import DetourSupport
import Dispatch
import Foundation
import Synchronization

/// Checks every dialect's sites on every core. Sites known while reading (nginx, Caddy) are
/// handed over as soon as their block is closed (`submit`), batches go to workers on the other
/// cores, and `finish` joins in on the reader's thread, waits, and gives the results in reading
/// order; sites known only once everything is read (HAProxy, Apache) are checked together (`run`).
/// While reading, workers leave the reader a core of its own: reading is the one part that
/// cannot be shared out, and it would wait behind them.
///
/// Inlinable, so each dialect's copy is specialised for its sites and results: generic code
/// would copy every result through value witnesses.
public final class SiteDriver<Site: Sendable, Result: Sendable>: Sendable {
    @usableFromInline let transform: @Sendable (Site) -> Result
    @usableFromInline let group = DispatchGroup()
    @usableFromInline let state = Mutex<State>(State())
    /// Sites per batch: enough to outweigh a hand-over, few enough to start early.
    @usableFromInline let batchSize: Int
    /// Workers beside the reader.
    @usableFromInline let workerLimit = max(1, Cores.count - 1)

    @usableFromInline struct State {
        @usableFromInline var pending: [Site] = []
        @usableFromInline var submitted = 0
        @usableFromInline var batches: [(start: Int, sites: [Site])] = []
        @usableFromInline var workers = 0
        @usableFromInline var results: [Int: [Result]] = [:]

        @usableFromInline init() {}
    }

    @inlinable public init(batchSize: Int = 64, _ transform: @escaping @Sendable (Site) -> Result) {
        self.batchSize = batchSize
        self.transform = transform
    }

    /// Queues `site`; a full batch goes to a worker at once.
    @inlinable public func submit(_ site: Site) {
        let startWorker = state.withLock { state -> Bool in
            state.pending.append(site)
            guard state.pending.count >= batchSize else { return false }
            Self.close(&state)
            guard state.workers < workerLimit else { return false }
            state.workers += 1
            return true
        }
        if startWorker {
            DispatchQueue.global().async(group: group) { [self] in
                drain()
                state.withLock { $0.workers -= 1 }
            }
        }
    }

    /// Checks what is still queued on this thread beside the workers, waits for them, and gives
    /// the results in the order the sites were submitted.
    @inlinable public func finish() -> [Result] {
        state.withLock { Self.close(&$0) }
        drain()
        group.wait()
        return state.withLock { state in
            state.results.keys.sorted().flatMap { state.results[$0]! }
        }
    }

    /// Checks `sites`, all known at once (a dialect whose sites are whole only once everything
    /// is read), on every core; the results in their order. Nothing is being read meanwhile,
    /// so no core is kept free and no batches are handed over.
    @inlinable public func run(_ sites: [Site]) -> [Result] {
        sites.concurrentMap(transform)
    }

    /// The pending sites become a batch.
    @inlinable static func close(_ state: inout State) {
        guard !state.pending.isEmpty else { return }
        state.batches.append((state.submitted, state.pending))
        state.submitted += state.pending.count
        state.pending = []
    }

    /// Runs queued batches until none is left.
    @inlinable func drain() {
        while let batch = state.withLock({ $0.batches.isEmpty ? nil : $0.batches.removeFirst() }) {
            let results = batch.sites.map(transform)
            state.withLock { $0.results[batch.start] = results }
        }
    }
}
