import DetourTestSupport
import Foundation
import Synchronization

/// PHP-FPM's dynamic pool under more visitors than it keeps children for, and one whose
/// children cannot start.
extension LogReproduction {
    /// A dynamic pool of 8 spare children and 20 at most, with 30 visitors at once asking for
    /// a script that takes 7 s: no child is idle for four seconds running, so PHP-FPM spawns
    /// faster each second until it says it "seems busy" (0 idle), then reaches
    /// pm.max_children. What is asked is the first visitor's answer, whom a child took at once.
    /// A pool whose every child fails as it starts, on a setting `php-fpm8.2 -t` passes
    /// (`apparmor_hat`, on a kernel without AppArmor: the query fails), behind nginx reading
    /// for 2 s: PHP-FPM forks a new child at once each time, and nginx's connection waits in
    /// the socket's queue until it gives up.
    static func phpPoolWhoseChildrenCannotStart() throws -> Outcome {
        let php = try PHPFPMServer(scripts: scripts, pool: "apparmor_hat = nosuchhat")
        defer { php.stop() }
        var outcome = try Reproduce.nginx("server { listen 127.0.0.1:PORT; \(phpLocation(php, readTimeout: "2s")) }") {
            try Visitor.status("http://127.0.0.1:\($0)/ok.php")
        }
        outcome.log += php.log
        return outcome
    }

    static func phpPoolBusierThanItsSpares() throws -> Outcome {
        let php = try PHPFPMServer(
            scripts: scripts, pool: "pm.max_children = 20\npm.start_servers = 8\npm.min_spare_servers = 8\npm.max_spare_servers = 16")
        defer { php.stop() }
        let others = DispatchGroup()
        let outcome = try Reproduce.nginx("server { listen 127.0.0.1:PORT; \(phpLocation(php)) }") { port in
            let url = "http://127.0.0.1:\(port)/busy.php"
            let first = Mutex(0)
            let answered = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                first.withLock { $0 = (try? Visitor.status(url, seconds: 15)) ?? 0 }
                answered.signal()
            }
            usleep(200_000)
            // A thread each: the global queue would not run 29 blocking visitors at once.
            for _ in 1..<30 {
                others.enter()
                Thread.detachNewThread {
                    _ = try? Visitor.status(url, seconds: 15)
                    others.leave()
                }
            }
            answered.wait()
            return first.withLock { $0 }
        }
        // The visitors still waiting get nginx's goodbye as it stops.
        others.wait()
        var withPool = outcome
        withPool.log += php.log
        return withPool
    }
}
