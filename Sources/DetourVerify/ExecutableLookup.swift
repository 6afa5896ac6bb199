import Foundation

/// Where a program is: the first executable of that name in the folders on PATH, then in the
/// folders given (where Debian puts servers and util-linux's tools, when PATH leaves them out).
enum ExecutableLookup {
    static func first(_ name: String, alsoIn folders: [String]) -> String? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        return (path + folders).map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
