import Foundation

/// A small valid site: one code, one article, the repository's templates. Tests override
/// or add files to provoke one problem at a time.
public enum SampleSite {
    public static let files: [String: String] = [
        "content/site.yml": """
        name: Sample
        base_url: https://help.sample.test/
        support:
          email: help@sample.test
        """,
        "content/codes/502.yml": """
        status: 502
        title: Bad Gateway
        summary: The proxy got no valid answer.
        advice: |
          Try again in a minute.
        related: [refused]
        """,
        "content/articles/refused.md": """
        ---
        title: Connection refused
        summary: Nothing listens on the upstream port.
        codes: [502]
        tags: [nginx]
        updated: 2026-11-20
        ---

        ## Check the port

        See [the code](/codes/502/).
        """,
    ]

    /// A temp folder with the repository's shipped content and templates, as a user starts from.
    public static func shipped() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try FileManager.default.copyItem(at: Repository.content, to: folder.url.appendingPathComponent("content"))
        try FileManager.default.copyItem(at: Repository.templates, to: folder.url.appendingPathComponent("templates"))
        return folder
    }

    public struct SynthFailure: Error, CustomStringConvertible {
        public let description: String
    }

    /// A temp folder with the repository's templates and `articles` articles written by
    /// detour-synth from the shipped content (`shape`: `vocabulary` or `shipped`): a site large
    /// enough that its build takes a while.
    public static func synthetic(articles: Int, shape: String = "vocabulary") throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try FileManager.default.copyItem(at: Repository.templates, to: folder.url.appendingPathComponent("templates"))
        let synth = try ProcessRunner.run(
            Repository.executable("detour-synth"), ["--articles", String(articles), "--from", Repository.content.path, "--shape", shape, "content"],
            in: folder.url)
        guard synth.status == 0 else {
            folder.remove()
            throw SynthFailure(description: "detour-synth failed: \(synth.stderr)")
        }
        return folder
    }

    /// A temp folder with the sample content, the repository's templates and `overrides` on top
    /// (an empty string removes a file).
    public static func make(_ overrides: [String: String] = [:]) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try FileManager.default.copyItem(at: Repository.templates, to: folder.url.appendingPathComponent("templates"))
        let merged = files.merging(overrides) { _, new in new }
        try folder.write(merged.filter { !$0.value.isEmpty })
        for (path, contents) in merged where contents.isEmpty {
            try? FileManager.default.removeItem(at: folder.url.appendingPathComponent(path))
        }
        return folder
    }
}
