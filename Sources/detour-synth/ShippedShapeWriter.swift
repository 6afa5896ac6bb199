import Foundation

/// Articles shaped like the shipped knowledge base's own: each is one of the shipped articles
/// (front matter with `log_patterns`, fenced nginx, Apache, Caddy, HAProxy, VCL and shell blocks,
/// tables, alerts, links, translations), copied into sets of the whole tree. Set K names its
/// files `<stem>-K.md`, links within the set, adds its own word to titles and log patterns (so
/// no pattern shadows another's), and varies the durations and sizes in its configuration blocks
/// by K mod 4: most blocks repeat across the site, as they do in a large knowledge base, and
/// not all are identical.
struct ShippedShapeWriter {
    /// A shipped article and its translations, by their paths under `articles/`.
    struct Source {
        var relativePath: String
        var text: String
        var translations: [(language: String, text: String)]
    }

    let sources: [Source]
    private let shippedPaths: Set<String>

    init(articlesFolder: URL) throws {
        let files = try FileManager.default.subpathsOfDirectory(atPath: articlesFolder.path).filter { $0.hasSuffix(".md") }.sorted()
        let translation = #/^(.*)\.([a-z]{2})\.md$/#
        var byBase: [String: Source] = [:]
        for file in files where file.firstMatch(of: translation) == nil {
            byBase[file] = Source(
                relativePath: file, text: try String(contentsOf: articlesFolder.appendingPathComponent(file), encoding: .utf8), translations: [])
        }
        for file in files {
            guard let match = file.firstMatch(of: translation), byBase[match.1 + ".md"] != nil else { continue }
            byBase[match.1 + ".md"]!.translations.append(
                (String(match.2), try String(contentsOf: articlesFolder.appendingPathComponent(file), encoding: .utf8)))
        }
        sources = byBase.keys.sorted().map { byBase[$0]! }
        shippedPaths = Set(byBase.keys)
    }

    /// Writes `count` articles (and their translations) under `articles/`, next to the shipped
    /// tree in `articles/shipped/`.
    func write(count: Int, into articles: URL) throws {
        let sets = (count + sources.count - 1) / sources.count
        for set in 1...max(sets, 1) {
            let members = sources.prefix(min(sources.count, count - (set - 1) * sources.count))
            let inSet = Set(members.map(\.relativePath))
            for source in members {
                let path = articles.appendingPathComponent("set-\(set)/" + renamed(source.relativePath, set: set))
                try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(article(source.text, at: source.relativePath, set: set, inSet: inSet).utf8).write(to: path)
                for (language, text) in source.translations {
                    let translated = path.deletingPathExtension().appendingPathExtension("\(language).md")
                    try Data(article(text, at: source.relativePath, set: set, inSet: inSet).utf8).write(to: translated)
                }
            }
        }
    }

    private func renamed(_ relativePath: String, set: Int) -> String {
        String(relativePath.dropLast(3)) + "-\(set).md"
    }

    /// One shipped article's text as set `set` holds it.
    func article(_ text: String, at relativePath: String, set: Int, inSet: Set<String>) -> String {
        let word = Self.word(set)
        var lines: [String] = []
        var frontMatter = 0
        var inPatterns = false
        var fence: (marker: Substring, language: Substring)?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = String(line)
            if line == "---" && frontMatter < 2 {
                frontMatter += 1
            } else if frontMatter == 1 {
                if line.hasPrefix("title:") { line = Self.appending(" (\(word))", toScalarIn: line) }
                if !line.hasPrefix(" ") { inPatterns = line.hasPrefix("log_patterns:") }
                if inPatterns, line.hasPrefix("  - ") { line = Self.prefixing("\(word) ", scalarIn: line) }
            } else if let open = fence {
                let trimmed = line.drop(while: \.isWhitespace)
                if trimmed.hasPrefix(open.marker) && trimmed.drop(while: { $0 == "`" || $0 == "~" }).allSatisfy(\.isWhitespace) {
                    fence = nil
                } else if Self.variedLanguages.contains(String(open.language)) {
                    line = Self.varied(line, by: set % 4)
                }
                lines.append(line)
                continue
            } else if let marker = line.firstMatch(of: #/^\s*(```+|~~~+)\s*([A-Za-z]*)/#) {
                fence = (marker.1, marker.2)
            } else {
                line = relinked(line, from: relativePath, set: set, inSet: inSet)
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    private static let variedLanguages: Set = ["nginx", "apache", "apacheconf", "caddyfile", "caddy", "haproxy", "vcl", "sh", "bash", "ini"]

    /// Durations and sizes (`60s`, `16k`, `10m`) raised by `amount`: the block stays valid.
    static func varied(_ line: String, by amount: Int) -> String {
        guard amount > 0 else { return line }
        return line.replacing(#/\b(\d+)(ms|s|k|K|m|M)\b/#) { match in "\(Int(match.1)! + amount)\(match.2)" }
    }

    /// Links to shipped articles, rewritten to this set's copy or, where the set lacks it, the
    /// shipped one.
    private func relinked(_ line: String, from relativePath: String, set: Int, inSet: Set<String>) -> String {
        let folder = (relativePath as NSString).deletingLastPathComponent
        return line.replacing(#/\]\(([A-Za-z0-9_./-]+\.md)(#[^)\s]*)?\)/#) { match in
            let target = Self.normalized(folder.isEmpty ? String(match.1) : folder + "/" + match.1)
            guard shippedPaths.contains(target) else { return String(match.0) }
            let depth = folder.split(separator: "/").count
            let up = String(repeating: "../", count: depth)
            let path = inSet.contains(target) ? up + renamed(target, set: set) : up + "../shipped/" + target
            return "](\(path)\(match.2 ?? ""))"
        }
    }

    private static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == ".." { _ = parts.popLast() } else if part != "." { parts.append(part) }
        }
        return parts.joined(separator: "/")
    }

    /// `key: value` with `suffix` added to the value, inside its quotes if it is quoted.
    private static func appending(_ suffix: String, toScalarIn line: String) -> String {
        let value = line.drop { $0 != ":" }.dropFirst().drop(while: \.isWhitespace)
        let key = line[..<value.startIndex]
        if let quote = value.first, quote == "\"" || quote == "'", value.count > 1, value.last == quote {
            return key + value.dropLast() + suffix + String(quote)
        }
        return key + value + suffix
    }

    private static func prefixing(_ prefix: String, scalarIn line: String) -> String {
        let value = line.dropFirst(4)
        if let quote = value.first, quote == "\"" || quote == "'" {
            return "  - " + String(quote) + prefix + value.dropFirst()
        }
        return "  - " + prefix + value
    }

    /// A word of letters for set `set`: numbers in a log pattern stand for any number.
    static func word(_ set: Int) -> String {
        let syllables = ["ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "ze", "bo"]
        var rest = set
        var word = "set"
        repeat {
            word += syllables[rest % syllables.count]
            rest /= syllables.count
        } while rest > 0
        return word
    }
}
