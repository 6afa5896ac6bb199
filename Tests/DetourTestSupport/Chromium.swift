import Foundation

/// Headless Chromium: the DOM of a page after scripts ran, as a visitor's browser builds it.
public enum Chromium {
    public static func dumpDOM(_ url: String) throws -> String {
        let executable = try RequiredTool.find("chromium")
        let profile = try TemporaryFolder()
        defer { profile.remove() }
        let result = try ProcessRunner.run(executable, [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
            "--user-data-dir=\(profile.path)", "--virtual-time-budget=5000", "--dump-dom", url,
        ])
        return result.stdout
    }
}
