import DetourLayout
import Foundation

/// Where a build reads and writes. Display names are how the folders appear in diagnostics.
public struct BuildOptions: Sendable {
    public var content: URL
    public var templates: URL
    public var output: URL
    public var contentDisplay: String
    public var templatesDisplay: String
    public var outputDisplay: String
    /// The templates folder was named by the user (`--templates`): it must exist. The default
    /// `templates` may be absent, and the built-in theme is used alone.
    public var templatesRequired: Bool
    /// Publishes draft articles too (`--drafts`).
    public var includeDrafts = false
    /// Replaces site.yml's `base_url` (`--base-url`).
    public var baseURL: String?
    /// Told what the build is doing as it goes: each phase, and pages written so far.
    public var progress: (@Sendable (String) -> Void)?
    /// Warnings fail the build too, so nothing is published while one stands.
    public var strict = false

    /// Whether the build consults and keeps the record of the last build (`BuildCache`).
    public enum Cache: Sendable {
        /// Neither: a preview server's builds, and builds made by other commands.
        case off
        /// Nothing is written when the inputs, options and detour are those of the last build
        /// into the output; any build that replaces the output records them.
        case use
        /// Builds in full, and records it (`--no-cache`).
        case refresh
    }

    public var cache = Cache.off
    /// Which detour builds (its version): a build cache made by another is not used.
    public var toolIdentity = ""

    /// The project folder: relative paths start here, and the output may never replace it.
    public var base: URL

    /// Paths as the user typed them, resolved against `base` (by default the current folder).
    public init(content: String = "content", templates: String? = nil, output: String = SiteLayout.defaultOutput, base: URL? = nil) {
        templatesRequired = templates != nil
        let templates = templates ?? "templates"
        let base = (base ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).standardizedFileURL
        self.base = base
        func resolve(_ path: String) -> URL {
            (path.hasPrefix("/") ? URL(fileURLWithPath: path) : base.appendingPathComponent(path)).standardizedFileURL
        }
        self.content = resolve(content)
        self.templates = resolve(templates)
        self.output = resolve(output)
        contentDisplay = Self.display(content)
        templatesDisplay = Self.display(templates)
        outputDisplay = Self.display(output)
    }

    private static func display(_ path: String) -> String {
        var path = path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        if path.hasPrefix("./"), path.count > 2 { path.removeFirst(2) }
        return path
    }
}
