import DetourTestSupport
import Foundation

/// nginx serving files from disk that its workers may not read, or that are not files: the
/// workers run as `nobody` when nginx starts as root without a `user`, so these need root.
extension LogReproduction {
    static let staticFiles: [LogReproduction] = [
        .init(name: "nginx, a page its workers may not read", slugs: ["forbidden-by-configuration"], status: 403, runnable: getuid() == 0) {
            try servingFiles(path: "/report.html") { root in
                try write("report", to: root + "/report.html", mode: 0o600)
            }
        },
        .init(name: "nginx, an index file in a folder its workers may not enter", slugs: ["forbidden-by-configuration"], status: 403, runnable: getuid() == 0) {
            try servingFiles(path: "/docs/") { root in
                try FileManager.default.createDirectory(atPath: root + "/docs", withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
                try write("docs", to: root + "/docs/index.html", mode: 0o644)
            }
        },
        // A named pipe where a page should be: nginx's answer is the 404 of a missing file.
        .init(name: "nginx, a path that is not a regular file", slugs: [], status: 404) {
            try servingFiles(path: "/run") { root in
                guard mkfifo(root + "/run", 0o644) == 0 else { throw ReproductionError(message: "mkfifo failed: \(errno)") }
            }
        },
    ]

    private static func write(_ text: String, to path: String, mode: Int) throws {
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    }

    /// nginx with a root folder readable by everyone that `prepare` fills, asked for `path`.
    private static func servingFiles(path: String, _ prepare: (String) throws -> Void) throws -> Outcome {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let root = folder.path + "/www"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        try prepare(root)
        return try Reproduce.nginx(location: "root \(root);", path: path)
    }
}
