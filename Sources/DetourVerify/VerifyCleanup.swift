import Foundation
import Synchronization

/// What `detour verify` started and made, so that whatever ends it (success, failure, Ctrl-C,
/// the time budget) stops every process by its PID and removes every sandbox.
public enum VerifyCleanup {
    /// Each process with the signal that stops it gracefully.
    private static let started = Mutex<(processes: [(process: Process, signal: Int32)], folders: [String])>(([], []))
    private static let interrupted = Mutex(false)
    /// The ports each run claimed (`PortPool`), given back however it ends.
    private static let pools = Mutex<[PortPool]>([])

    static func track(_ process: Process, stopSignal: Int32) { started.withLock { $0.processes.append((process, stopSignal)) } }
    static func track(folder: String) { started.withLock { $0.folders.append(folder) } }
    static func track(_ pool: PortPool) { pools.withLock { $0.append(pool) } }

    /// Gives `pool`'s ports back and forgets it.
    static func release(_ pool: PortPool) {
        pool.release()
        pools.withLock { $0.removeAll { $0 === pool } }
    }

    /// Stops `process` (its stop signal, then SIGKILL after `grace` seconds) and forgets it.
    static func stop(_ process: Process, grace: Double = 5) {
        let signal = started.withLock { $0.processes.first { $0.process === process }?.signal } ?? SIGTERM
        let pid = process.processIdentifier
        if process.isRunning {
            kill(pid, signal)
            let deadline = Date().addingTimeInterval(grace)
            while process.isRunning, Date() < deadline { usleep(20_000) }
            if process.isRunning { kill(pid, SIGKILL) }
            // Bounded: a killed parent Foundation has not seen end would be waited for forever.
            let killed = Date().addingTimeInterval(grace)
            while process.isRunning, Date() < killed { usleep(20_000) }
        }
        // Its workers, in the process group it leads, go with it: Apache's children stuck in
        // a long upstream read outlive a parent killed before it could stop them.
        if pid > 0 { kill(-pid, SIGKILL) }
        started.withLock { $0.processes.removeAll { $0.process === process } }
    }

    /// Under the lock: an interruption and the run's own end may remove the same folder at once.
    static func remove(folder: String) {
        started.withLock { state in
            try? FileManager.default.removeItem(atPath: folder)
            state.folders.removeAll { $0 == folder }
        }
    }

    /// For Ctrl-C: stops everything still running, removes every sandbox and ends the process
    /// with `status`, while the run itself, which may see its server go, waits (`parkIfInterrupted`).
    public static func interrupt(exitStatus status: Int32) -> Never {
        interrupted.withLock { $0 = true }
        all()
        exit(status)
    }

    /// Waits for `interrupt` to end the process, when it has begun to.
    public static func parkIfInterrupted() {
        while interrupted.withLock({ $0 }) { sleep(60) }
    }

    /// Stops everything still running, removes every sandbox and gives the ports back.
    public static func all() {
        let (processes, folders) = started.withLock { ($0.processes, $0.folders) }
        for (process, _) in processes { stop(process, grace: 2) }
        for folder in folders { remove(folder: folder) }
        for pool in pools.withLock({ $0 }) { release(pool) }
    }
}
