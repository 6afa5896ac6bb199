import CFileSystem
import Foundation

/// Every file a build reads, by size and modification time: the content folder and the
/// templates folder (the built-in theme is part of the executable). A file written too
/// recently to be told apart from a later write in the same clock tick is listed as never
/// matching, as git does with racily clean files: the next build then runs in full.
enum InputFiles {
    /// How far a file's modification time may trail the clock: file systems stamp times from
    /// a coarse clock, a few milliseconds behind the one read here.
    static let racyWindow: Int64 = 100_000_000

    /// One line per file ("size mtime folder/path"), sorted, a racy file's with the time of
    /// listing so that no later list matches it; nil when a folder the build needs cannot be
    /// walked.
    static func list(_ options: BuildOptions) -> String? {
        let now = Self.now()
        guard let content = list(options.content.path, as: "content", now: now) else { return nil }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: options.templates.path, isDirectory: &isFolder), isFolder.boolValue else {
            return content + "no templates folder\n"
        }
        guard let templates = list(options.templates.path, as: "templates", now: now) else { return nil }
        return content + templates
    }

    private static func list(_ root: String, as name: String, now: Int64) -> String? {
        var length: UInt = 0
        guard let text = detour_list_files(root, &length) else { return nil }
        defer { free(text) }
        let lines = String(decoding: UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: Int(length)), as: UTF8.self)
            .split(separator: "\n")
        return lines.map { line -> String in
            let fields = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, let modified = Int64(fields[1]), modified < now - racyWindow else { return "racy \(now) \(name)/\(line)" }
            return "\(fields[0]) \(fields[1]) \(name)/\(fields[2])"
        }.sorted().map { $0 + "\n" }.joined()
    }

    private static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
