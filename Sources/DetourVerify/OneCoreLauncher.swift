import Foundation

/// The command that runs a server on one core under `SCHED_BATCH` (util-linux's `taskset` and
/// `chrt`): a thread it wakes then waits until the running one blocks instead of preempting it.
/// varnishd streams a fetch, so whether a backend that breaks its answer off reaches vcl_synth's
/// 503 (the fetch failed before delivery began) or a 200 cut short is a race between two of its
/// threads; on one core without wake-up preemption the fetch fails first every time (measured:
/// 300 of 300 asks, against about one in three on two cores and one in sixty on one core with
/// preemption), so verify meets the path `detour check` names.
enum OneCoreLauncher {
    /// The prefix to put before the server's binary, or none when either tool is missing or
    /// the machine refuses it (a sandbox that forbids changing the scheduler): asked once.
    static func prefix() -> [String] { working }

    private static let working: [String] = {
        let tool = { (name: String) in ExecutableLookup.first(name, alsoIn: ["/usr/bin", "/bin"]) }
        guard let chrt = tool("chrt"), let taskset = tool("taskset"), let core = firstAllowedCore(), let truth = tool("true") else { return [] }
        let prefix = [chrt, "--batch", "0", taskset, "--cpu-list", String(core)]
        let trial = Process()
        trial.executableURL = URL(fileURLWithPath: prefix[0])
        trial.arguments = Array(prefix.dropFirst()) + [truth]
        trial.standardOutput = FileHandle.nullDevice
        trial.standardError = FileHandle.nullDevice
        guard (try? trial.run()) != nil else { return [] }
        trial.waitUntilExit()
        return trial.terminationStatus == 0 ? prefix : []
    }()

    /// The first core this process may run on (`Cpus_allowed_list: 2-3,6`), as a container allows.
    private static func firstAllowedCore() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed_list:") })
        else { return nil }
        let list = line.dropFirst("Cpus_allowed_list:".count).trimmingCharacters(in: .whitespaces)
        return Int(list.prefix { $0.isNumber })
    }
}
