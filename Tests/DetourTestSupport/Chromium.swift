import Foundation

/// Headless Chromium: the DOM of a page after scripts ran, as a visitor's browser builds it.
public enum Chromium {
    static let flags = ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions"]

    /// `arguments` go before the URL, such as `--force-dark-mode` for a visitor who prefers dark.
    public static func dumpDOM(_ url: String, arguments: [String] = []) throws -> String {
        let executable = try RequiredTool.find("chromium")
        let profile = try TemporaryFolder()
        defer { profile.remove() }
        let result = try ProcessRunner.run(
            executable,
            flags + [
                "--user-data-dir=\(profile.path)", "--virtual-time-budget=5000",
            ] + arguments + ["--dump-dom", url])
        return result.stdout
    }

    /// A PNG of `url` as a `width`×`height` window paints it, written to `file`.
    public static func screenshot(_ url: String, to file: String, width: Int = 900, height: Int = 1100, arguments: [String] = []) throws {
        let executable = try RequiredTool.find("chromium")
        let profile = try TemporaryFolder()
        defer { profile.remove() }
        _ = try ProcessRunner.run(
            executable,
            flags + [
                "--user-data-dir=\(profile.path)", "--virtual-time-budget=5000", "--hide-scrollbars", "--window-size=\(width),\(height)",
            ] + arguments + ["--screenshot=\(file)", url])
    }

    /// A browser left open on `url`, its timers running in real time, until stopped by its PID.
    public static func open(_ url: String, profile: TemporaryFolder) throws -> ServerProcess {
        try ServerProcess(
            "chromium",
            flags + [
                "--user-data-dir=\(profile.path)", "--remote-debugging-port=0", url,
            ], log: profile.url.appendingPathComponent("chromium.log"))
    }

    /// The messages Chromium itself writes to the console of `url` in the `seconds` after it starts
    /// loading (a failed request, a WebSocket handshake refused), which the page's scripts cannot
    /// read, and as level `navigation` the error of a page that never loads (a redirect loop):
    /// `BrowserConsole/console.js` reads them over the DevTools pipe of a browser it starts with
    /// these flags and `arguments`.
    public static func consoleMessages(_ url: String, seconds: Int = 3, arguments: [String] = []) throws -> [(level: String, text: String)] {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("BrowserConsole/console.js")
        let result = try ProcessRunner.run(
            try RequiredTool.find("node"), [script.path, url, String(seconds), try RequiredTool.find("chromium").path] + flags + arguments)
        return result.stdout.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", maxSplits: 1).map(String.init)
            return fields.count == 2 ? (fields[0], fields[1]) : nil
        }
    }

    /// The titles of the pages open in a browser started by `open`, read from its DevTools
    /// endpoint: what the tab shows now, after any reload.
    public static func pageTitles(profile: TemporaryFolder) -> [String] {
        guard let active = try? String(contentsOf: profile.url.appendingPathComponent("DevToolsActivePort"), encoding: .utf8),
            let port = active.split(separator: "\n").first.flatMap({ Int($0) }),
            let curl = try? RequiredTool.find("curl"),
            let response = try? ProcessRunner.run(curl, ["-s", "--max-time", "5", "http://127.0.0.1:\(port)/json/list"]),
            let targets = try? JSONSerialization.jsonObject(with: Data(response.stdout.utf8)) as? [[String: Any]]
        else { return [] }
        return targets.filter { $0["type"] as? String == "page" }.compactMap { $0["title"] as? String }
    }
}
