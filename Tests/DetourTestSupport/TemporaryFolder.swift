import Foundation

/// A folder under the system temp directory, filled from a `[relative path: contents]`
/// dictionary and removed on `remove()`.
public struct TemporaryFolder {
    public let url: URL

    public init(files: [String: String] = [:]) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("detour-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try write(files)
    }

    public var path: String { url.path }

    public func write(_ files: [String: String]) throws {
        for (relative, contents) in files {
            try writeData(relative, Data(contents.utf8))
        }
    }

    public func writeData(_ relative: String, _ data: Data) throws {
        let file = url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
    }

    public func read(_ relative: String) throws -> String {
        try String(contentsOf: url.appendingPathComponent(relative), encoding: .utf8)
    }

    public func exists(_ relative: String) -> Bool {
        FileManager.default.fileExists(atPath: url.appendingPathComponent(relative).path)
    }

    /// Sets every file's and folder's modification time `seconds` in the past: out of the window
    /// in which a build does not trust a file just written to be unchanged.
    public func age(by seconds: TimeInterval) throws {
        let old = Date().addingTimeInterval(-seconds)
        for case let relative as String in FileManager.default.enumerator(atPath: path)! {
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: path + "/" + relative)
        }
    }

    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    /// Every file below `relative` with its bytes, for byte-for-byte comparisons.
    public func snapshot(_ relative: String) -> [String: Data] {
        Self.snapshot(of: url.appendingPathComponent(relative))
    }

    public static func snapshot(of root: URL) -> [String: Data] {
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else { return [:] }
        var files: [String: Data] = [:]
        let rootPath = root.standardizedFileURL.path
        for case let file as URL in enumerator {
            guard (try? file.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true else { continue }
            files[String(file.standardizedFileURL.path.dropFirst(rootPath.count + 1))] = try? Data(contentsOf: file)
        }
        return files
    }
}
