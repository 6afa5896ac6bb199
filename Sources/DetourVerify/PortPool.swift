import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// Free ports on 127.0.0.1, one per listen address as written (the same address, the same
/// port), found by binding port 0 and claimed across processes until `release()`: HAProxy and
/// Caddy bind with SO_REUSEPORT, so two sandboxes started at once and given one port would
/// share it without an error, each answering some of the other's probes. A claim is a file
/// named for the port in a folder every detour of this user shares, holding the claimer's PID;
/// one whose process is gone is taken over.
final class PortPool: Sendable {
    private let ports = Mutex<[String: Int]>([:])
    private let claimed = Mutex<[Int]>([])
    private let claims: String

    init(claims: String = FileManager.default.temporaryDirectory.appendingPathComponent("detour-ports-\(getuid())").path) {
        self.claims = claims
    }

    func port(for key: String) -> Int {
        while true {
            if let known = ports.withLock({ $0[key] }) { return known }
            let port = unused()
            let taken = ports.withLock { taken -> Bool in
                guard taken[key] == nil, !taken.values.contains(port) else { return true }
                taken[key] = port
                return false
            }
            if !taken { return port }
        }
    }

    /// A port nothing listens on now, claimed.
    func unused() -> Int {
        for _ in 0..<64 {
            let port = Self.unbound()
            if port == 0 || claim(port) { return port }
        }
        return 0
    }

    /// Claims `port`: false when a live process holds it (this one included).
    func claim(_ port: Int) -> Bool {
        let path = "\(claims)/\(port)"
        for _ in 0..<3 {
            let file = open(path, O_CREAT | O_EXCL | O_WRONLY, 0o644)
            if file >= 0 {
                let claim = FileHandle(fileDescriptor: file, closeOnDealloc: true)
                try? claim.write(contentsOf: Data("\(getpid())".utf8))
                try? claim.close()
                claimed.withLock { $0.append(port) }
                return true
            }
            switch errno {
            case ENOENT:
                // The folder goes with the last claim given back.
                try? FileManager.default.createDirectory(atPath: claims, withIntermediateDirectories: true)
            case EEXIST:
                // Held by a process that is gone: taken over. One still writing its PID holds it.
                guard let owner = try? String(contentsOfFile: path, encoding: .utf8), let pid = Int32(owner), pid > 0, kill(pid, 0) != 0,
                    errno == ESRCH
                else { return false }
                unlink(path)
            default:
                // A folder it cannot write in claims nothing: the port is used unclaimed.
                return true
            }
        }
        return false
    }

    /// Gives every claimed port back, and the folder with the last.
    func release() {
        for port in claimed.withLock({ claimed in
            defer { claimed = [] }
            return claimed
        }) { unlink("\(claims)/\(port)") }
        rmdir(claims)
    }

    /// A port nothing is bound to now.
    private static func unbound() -> Int {
        guard
            let channel = try? ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .bind(host: "127.0.0.1", port: 0).wait()
        else { return 0 }
        let port = channel.localAddress?.port ?? 0
        try? channel.close().wait()
        return port
    }

    static func isOpen(_ port: Int) async -> Bool {
        guard let channel = try? await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(host: "127.0.0.1", port: port).get() else {
            return false
        }
        try? await channel.close()
        return true
    }
}
