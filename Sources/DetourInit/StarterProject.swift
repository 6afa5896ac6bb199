import Foundation

/// `detour init`: a new project that builds and checks clean as it is — `content/site.yml` with
/// every field explained, the logo, every code definition and translation detour ships, two
/// example articles, and a `.gitignore` for the output.
public enum StarterProject {
    public enum Failure: Error, CustomStringConvertible {
        /// Nothing was written: this file is already there.
        case exists(String)
        case cannotWrite(String, String)

        public var description: String {
            switch self {
            case .exists(let path): "\(path) already exists; detour init writes a new project and overwrites nothing"
            case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
            }
        }
    }

    /// Every file of the starter, by path under the project folder.
    public static var files: [(path: String, contents: Data)] {
        var files: [(String, Data)] = [
            ("content/site.yml", Data(StarterTexts.siteConfig.utf8)),
            ("content/articles/visitors/seeing-an-error-page.md", Data(StarterTexts.visitorArticle.utf8)),
            ("content/articles/operations/application-not-answering.md", Data(StarterTexts.operatorArticle.utf8)),
            (".gitignore", Data("# detour build writes here, and records what it built from; detour serve does neither.\n/public/\n/.detour-cache/\n".utf8)),
        ]
        for file in StarterContentFiles.files {
            guard var data = Data(base64Encoded: file.base64) else { continue }
            // The shipped articles are not in the starter: codes point at none of them.
            if file.path.hasPrefix("codes/") { data = Data(withoutRelated(String(decoding: data, as: UTF8.self)).utf8) }
            files.append(("content/" + file.path, data))
        }
        return files.sorted { $0.0 < $1.0 }
    }

    /// Writes the starter into `folder` (made if missing), or nothing at all if any of its files
    /// exists. `display` is how the folder is named in messages. Returns the paths written.
    public static func write(to folder: URL, display: String) throws -> [String] {
        let files = files
        let prefix = display == "." ? "" : (display.hasSuffix("/") ? display : display + "/")
        for file in files where FileManager.default.fileExists(atPath: folder.appendingPathComponent(file.path).path) {
            throw Failure.exists(prefix + file.path)
        }
        for file in files {
            let url = folder.appendingPathComponent(file.path)
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try file.contents.write(to: url, options: .withoutOverwriting)
            } catch {
                throw Failure.cannotWrite(prefix + file.path, (error as NSError).localizedDescription)
            }
        }
        return files.map { prefix + $0.path }
    }

    /// A code file with its `related:` list emptied, the rest as written.
    static func withoutRelated(_ yaml: String) -> String {
        var lines: [Substring] = []
        var skipping = false
        for line in yaml.split(separator: "\n", omittingEmptySubsequences: false) {
            if skipping, line.hasPrefix(" ") || line.hasPrefix("-") { continue }
            skipping = false
            if line.hasPrefix("related:") {
                lines.append("related: []")
                skipping = true
                continue
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
