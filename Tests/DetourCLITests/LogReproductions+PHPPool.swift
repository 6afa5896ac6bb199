import DetourTestSupport
import Foundation
import Synchronization

/// PHP-FPM's dynamic pool under more visitors than it keeps children for.
extension LogReproduction {
    /// A dynamic pool of 8 spare children and 20 at most, with 30 visitors at once asking for
    /// a script that takes 7 s: no child is idle for four seconds running, so PHP-FPM spawns
    /// faster each second until it says it "seems busy" (0 idle), then reaches
    /// pm.max_children. What is asked is the first visitor's answer, whom a child took at once.
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
