import Foundation

/// Writes a synthetic knowledge base for benchmarks and stress tests: the shipped site.yml,
/// codes, translations, logo and articles, plus N articles. `--shape shipped` (the default)
/// copies the shipped articles' own shapes (`ShippedShapeWriter`); `--shape vocabulary` writes
/// articles of realistic size (about 700 words) from proxy-operations vocabulary, with front
/// matter, headings, lists, code blocks and links between articles. Deterministic.
@main
struct SyntheticKnowledgeBase {
    static let usage = "usage: detour-synth [--articles N] [--from CONTENT] [--shape shipped|vocabulary] OUTPUT_CONTENT_FOLDER"

    static func main() throws {
        var arguments = CommandLine.arguments.dropFirst()
        var count = 10_000
        var output: String?
        var source = "content"
        var shape = "shipped"
        while let argument = arguments.popFirst() {
            switch argument {
            case "--articles": count = Int(arguments.popFirst() ?? "") ?? count
            case "--from": source = arguments.popFirst() ?? source
            case "--shape": shape = arguments.popFirst() ?? shape
            case "-h", "--help":
                print(usage)
                return
            default: output = argument
            }
        }
        guard let output, ["shipped", "vocabulary"].contains(shape) else {
            FileHandle.standardError.write(Data((usage + "\n").utf8))
            exit(64)
        }
        let target = URL(fileURLWithPath: output)
        let manager = FileManager.default
        try? manager.removeItem(at: target)
        try manager.createDirectory(at: target.appendingPathComponent("articles"), withIntermediateDirectories: true)
        for item in ["site.yml", "logo.svg", "codes", "translations"] {
            try manager.copyItem(at: URL(fileURLWithPath: source).appendingPathComponent(item), to: target.appendingPathComponent(item))
        }
        // Related slugs in the copied codes must exist: keep them by writing the shipped articles too.
        try manager.copyItem(at: URL(fileURLWithPath: source).appendingPathComponent("articles"), to: target.appendingPathComponent("articles/shipped"))

        if shape == "shipped" {
            let writer = try ShippedShapeWriter(articlesFolder: URL(fileURLWithPath: source).appendingPathComponent("articles"))
            try writer.write(count: count, into: target.appendingPathComponent("articles"))
            print("wrote \(count) articles shaped like \(source)/articles to \(output)")
            return
        }
        var writer = ArticleWriter(count: count)
        for index in 0..<count {
            let folder = target.appendingPathComponent("articles/section-\(index % 50)")
            if index < 50 { try manager.createDirectory(at: folder, withIntermediateDirectories: true) }
            try Data(writer.article(index).utf8).write(to: folder.appendingPathComponent("topic-\(index).md"))
        }
        print("wrote \(count) articles to \(output)")
    }
}

/// A small linear congruential generator: reproducible without Foundation's random sources.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state
    }
}
