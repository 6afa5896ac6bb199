import CFileSystem
import Crypto
import DetourSupport
import Foundation

/// Every file a build reads, by size and modification time: the content folder and the
/// templates folder (the built-in theme is part of the executable). A file written too
/// recently to be told apart from a later write in the same clock tick is listed by its
/// content's SHA-256 instead, as git checks racily clean files by content: the next build
/// reads it again and compares, so a file written just before a build is neither trusted by
/// its time nor taken for a change when it still holds what the build read.
enum InputFiles {
    /// How far a file's modification time may trail the clock: file systems stamp times from
    /// a coarse clock, a few milliseconds behind the one read here.
    static let racyWindow: Int64 = 100_000_000

    /// One line per file ("size mtime folder/path"), sorted, a racy file's with its content's
    /// digest ("racy <sha-256> folder/path"); nil when a folder the build needs cannot be
    /// walked.
    static func list(_ options: BuildOptions) -> String? {
        let now = Self.now()
        guard let content = list(options.content.path, as: "content", now: now) else { return nil }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: options.templates.path, isDirectory: &isFolder), isFolder.boolValue else {
            // The folder itself, as no file can be: its coming is a change like any other.
            return content + "0 0 templates/\n"
        }
        guard let templates = list(options.templates.path, as: "templates", now: now) else { return nil }
        return content + templates
    }

    private static func list(_ root: String, as name: String, now: Int64) -> String? {
        var length: UInt = 0
        guard let text = detour_list_files(root, &length) else { return nil }
        defer { free(text) }
        let bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: Int(length)))
        var lines: [String] = []
        forEachLine(bytes) { line, size, modified, path in
            let relative = FieldLines.string(path)
            guard let modified = FieldLines.integer(modified), modified < now - racyWindow else {
                lines.append("racy " + digest(ofFileAt: root + "/" + relative) + " " + name + "/" + relative)
                return
            }
            lines.append(FieldLines.string(size) + " \(modified) " + name + "/" + relative)
        }
        return lines.sorted().map { $0 + "\n" }.joined()
    }

    /// Each line of a listing, split into size, modification time and path (which may hold spaces).
    private static func forEachLine(
        _ bytes: [UInt8],
        _ body: (
            _ line: UnsafeBufferPointer<UInt8>, _ size: UnsafeBufferPointer<UInt8>, _ modified: UnsafeBufferPointer<UInt8>, _ path: UnsafeBufferPointer<UInt8>
        ) ->
            Void
    ) {
        FieldLines.forEach(in: bytes, separator: 0x0A) { fields in
            let line = fields[0]
            guard let first = line.firstIndex(of: UInt8(ascii: " ")), let second = line[(first + 1)...].firstIndex(of: UInt8(ascii: " ")) else { return true }
            body(
                line, UnsafeBufferPointer(rebasing: line[..<first]), UnsafeBufferPointer(rebasing: line[(first + 1)..<second]),
                UnsafeBufferPointer(rebasing: line[(second + 1)...]))
            return true
        }
    }

    /// A listing's lines by path (`content/articles/x.md`).
    static func entries(_ listing: String) -> [String: String] {
        var entries: [String: String] = [:]
        forEachLine(Array(listing.utf8)) { line, _, _, path in entries[FieldLines.string(path)] = FieldLines.string(line) }
        return entries
    }

    /// The paths (`content/…`, `templates/…`) whose files differ between the listing `before`
    /// and `after`: come, gone, or listed otherwise, but for a file listed racy before that
    /// still holds the content it had then.
    static func changes(from before: String, to after: String, _ options: BuildOptions) -> [String] {
        if before == after { return [] }
        var old = entries(before)
        var changed: [String] = []
        forEachLine(Array(after.utf8)) { line, _, _, path in
            let (path, now) = (FieldLines.string(path), FieldLines.string(line))
            guard let was = old.removeValue(forKey: path) else { return changed.append(path) }
            if was != now, differs(was, now, file: file(of: path, options)) { changed.append(path) }
        }
        return (changed + old.keys).sorted()
    }

    /// Whether a file listed `was`, and now `now`, changed: unless it was racy and still holds
    /// the content it had then (at `file`, or as a racy `now` says).
    private static func differs(_ was: String, _ now: String, file: String?) -> Bool {
        guard let listed = racyDigest(was) else { return true }
        if let current = racyDigest(now) { return current != listed }
        guard let file else { return true }
        return digest(ofFileAt: file) != listed
    }

    /// Whether `contents`, read from the file at `path`, is what its `line` lists: the same
    /// content for a racy line, else a file that still has the line's size and modification
    /// time (so that it was not written since it was listed).
    static func describes(_ line: String, path: String, contents: Data) -> Bool {
        if let listed = racyDigest(line) { return digest(of: contents) == listed }
        let fields = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        var info = stat()
        guard fields.count == 3, let size = Int64(fields[0]), let modified = Int64(fields[1]), stat(path, &info) == 0 else { return false }
        return Int64(info.st_size) == size && Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec) == modified
    }

    /// The digest a racy line lists; nil for another line.
    private static func racyDigest(_ line: String) -> Substring? {
        guard line.hasPrefix("racy ") else { return nil }
        return line.dropFirst("racy ".count).prefix { $0 != " " }
    }

    /// Where the file a listing calls `path` is.
    private static func file(of path: String, _ options: BuildOptions) -> String? {
        for (name, root) in [("content/", options.content), ("templates/", options.templates)] where path.hasPrefix(name) {
            return root.path + "/" + path.dropFirst(name.count)
        }
        return nil
    }

    /// The hex SHA-256 of the file's content; when it cannot be read, a word that is no
    /// digest and matches no other listing's.
    private static func digest(ofFileAt path: String) -> String {
        FileManager.default.contents(atPath: path).map(digest(of:)) ?? "unread-" + UUID().uuidString
    }

    private static func digest(of contents: Data) -> String {
        SHA256.hash(data: contents).map { String(format: "%02x", $0) }.joined()
    }

    private static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
