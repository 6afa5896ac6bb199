import DetourSupport
import Foundation

extension OutputDirectory {
    /// Replaces some files of the output itself, each whole: every one is written beside its
    /// place first, then all are renamed over the old ones with SIGINT, SIGTERM and SIGHUP
    /// held back, so an interrupted or failed rebuild leaves the previous output as it was.
    func replaceTogether(_ files: [(path: String, contents: String)]) throws {
        var written: [(temporary: String, path: String)] = []
        defer { for file in written { unlink(file.temporary) } }
        for (relativePath, contents) in files {
            let path = target.path + "/" + relativePath
            let temporary = Self.temporaryPath(beside: path)
            written.append((temporary, path))
            var contents = contents
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw FileSystemError(path: temporary) }
            defer { close(descriptor) }
            try contents.withUTF8 { try Self.write($0, to: descriptor, path: temporary) }
        }
        var held = sigset_t()
        var previous = sigset_t()
        sigemptyset(&held)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&held, signal) }
        sigprocmask(SIG_BLOCK, &held, &previous)
        defer { sigprocmask(SIG_SETMASK, &previous, nil) }
        for (index, file) in written.enumerated() where rename(file.temporary, file.path) != 0 {
            // Only a file system gone read-only or full fails here; what was renamed stays.
            written.removeFirst(index)
            throw FileSystemError(path: file.path)
        }
        written = []
    }
}
