import Foundation

/// Headless Chromium: the DOM of a page after scripts ran, as a visitor's browser builds it.
public enum Chromium {
    static let flags = ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions"]

    /// `arguments` go before the URL, such as `--force-dark-mode` for a visitor who prefers dark.
    public static func dumpDOM(_ url: String, arguments: [String] = []) throws -> String {
        let executable = try RequiredTool.find("chromium")
        let profile = try TemporaryFolder()
        defer { profile.remove() }
        let result = try ProcessRunner.run(executable, flags + [
            "--user-data-dir=\(profile.path)", "--virtual-time-budget=5000",
        ] + arguments + ["--dump-dom", url])
        return result.stdout
    }

    /// A browser left open on `url`, its timers running in real time, until stopped by its PID.
    public static func open(_ url: String, profile: TemporaryFolder) throws -> ServerProcess {
        try ServerProcess("chromium", flags + [
            "--user-data-dir=\(profile.path)", "--remote-debugging-port=0", url,
        ], log: profile.url.appendingPathComponent("chromium.log"))
    }
}
