import Foundation

/// The preview's own folder under $TMPDIR, removed when serving stops.
struct TemporaryFolder {
    let url: URL

    init() throws {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base + "/detour-serve.XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw PreviewServer.Failure.temporaryFolder(String(cString: strerror(errno))) }
        url = URL(fileURLWithPath: String(cString: made), isDirectory: true)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
