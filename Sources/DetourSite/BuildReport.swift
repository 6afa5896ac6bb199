import DetourDiagnostics
import Foundation

/// What a build did: its findings and, when it wrote output, what it wrote.
public struct BuildReport: Sendable {
    public var diagnostics: [Diagnostic] = []
    /// True when the output folder was replaced.
    public var wroteOutput = false
    /// Nothing changed since the last build into the output (`BuildCache`): nothing was
    /// written, and the findings and counts are that build's.
    public var upToDate = false
    /// The files a rebuild of only some articles' pages wrote (`ArticleRebuild`), in the output.
    public var rewritten: [String] = []
    /// Codes with an error page, each written in every language and format.
    public var errorPages = 0
    public var articles = 0
    public var files = 0
    /// Wall time of each phase, in the order they ran, and the process's peak memory when it
    /// ended (`detour build --timings`).
    public var phases: [(name: String, seconds: Double, peakBytes: Int)] = []
    /// Wall time of work done on other threads while those phases ran (the search index,
    /// beside the pages): not part of their sum.
    public var concurrentPhases: [(name: String, seconds: Double)] = []
    /// What a full build made (content, pages, templates). A caller that ends the process
    /// after the report can leave it to the system: freeing a large site's millions of pieces
    /// one by one takes a tenth of a second on one core.
    public var built: (any Sendable)?
    /// Told each phase's name as it starts (a terminal's progress line).
    var progress: (@Sendable (String) -> Void)?

    /// Runs `work` and records its wall time as the phase `name`.
    mutating func time<Result>(_ name: String, _ work: () throws -> Result) rethrows -> Result {
        progress?(name)
        let start = DispatchTime.now().uptimeNanoseconds
        defer { phases.append((name, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, Self.peakMemory())) }
        return try work()
    }

    /// The most memory the process has held so far (the kernel's high-water mark of its
    /// resident set), 0 where the kernel does not say.
    static func peakMemory() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kilobytes * 1024
    }
}
