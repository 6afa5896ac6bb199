import DetourTestSupport
import Foundation

/// nginx cutting a response short itself: an answer larger than its buffers, for a visitor who
/// reads slower than the upstream sends, goes to a temporary file, and a temporary folder its
/// workers may not enter (left by another user, a container image, a package) ends the body
/// there. The status has left: the visitor gets 200 and part of the body.
extension LogReproduction {
    static let spooling: [LogReproduction] = [
        // As root, as CI runs: the workers run as nobody, kept out of a folder root made.
        .init(
            name: "nginx, a response it must spool to a temporary folder its workers may not enter", slugs: ["upstream-closed-connection"],
            status: 200, runnable: getuid() == 0
        ) { try spooledToAClosedFolder() }
    ]

    /// A visitor who reads nothing until nginx has had to spool; `sndbuf` keeps what the kernel
    /// holds for it small, so that comes at once.
    private static func spooledToAClosedFolder() throws -> Outcome {
        try with(.streams) { upstream in
            let servers = """
                server {
                    listen 127.0.0.1:PORT sndbuf=8k;
                    location / { proxy_temp_path {{PREFIX}}/spool 1 2; proxy_pass http://127.0.0.1:\(upstream.port); }
                }
                """
            return try Reproduce.nginx(servers) { port, nginx in
                // nginx made spool/ for its workers at start; the folders a level below are root's.
                for level in 0...9 {
                    try FileManager.default.createDirectory(
                        atPath: nginx.folder.path + "/spool/\(level)", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                }
                let visitor = try VisitorConnection(port: port)
                guard visitor.send("GET /export HTTP/1.1\r\nHost: localhost\r\n\r\n") else { return 0 }
                guard Poll.until(timeout: 10, { nginx.errorLog.contains("while reading upstream") }) else {
                    throw ReproductionError(message: "nginx never spooled the answer: \(nginx.errorLog)")
                }
                return visitor.status()
            }
        }
    }
}
