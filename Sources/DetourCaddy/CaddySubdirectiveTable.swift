import Foundation

/// The words Caddy 2.6 takes inside each directive's block, and how it refuses another: probed
/// from the real `caddy adapt` by scripts/caddy-subdirectives/probe.py
/// (CaddySubdirectiveData.swift). A block is named by its directive and each line that opens it
/// inside (`reverse_proxy>transport http`); blocks whose unknown words are module names or free
/// names (`encode`, `header`) are not in the table and not judged.
struct CaddySubdirectiveTable: Sendable {
    static let shared = CaddySubdirectiveTable(caddySubdirectiveData)

    struct Block: Sendable {
        let taken: Set<String>
        /// Caddy's refusal, `{word}` standing for the word.
        let refusal: String
    }

    private var blocks: [String: Block] = [:]

    init(_ data: String) {
        for line in data.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 4 else { continue }
            let path = fields[0].trimmingCharacters(in: .whitespaces)
            blocks[path] = Block(taken: Set(fields[2].split(separator: ",").map(String.init)), refusal: String(fields[3]))
        }
    }

    /// Each word Caddy refuses as a subdirective in the block the line opens, and blocks inside
    /// it, with Caddy's words.
    func refusals(of line: CaddyLine) -> [(word: CaddyToken, message: String)] {
        guard let name = line.first else { return [] }
        var found: [(word: CaddyToken, message: String)] = []
        collect(line, path: name.text, into: &found)
        return found
    }

    private func collect(_ line: CaddyLine, path: String, into found: inout [(word: CaddyToken, message: String)]) {
        guard let block = blocks[path] else { return }
        for inner in CaddyDirectiveCheck.block(inside: line).lines {
            guard let word = inner.first, !word.isQuoted else { continue }
            // Named matchers are taken in any block; a placeholder is a word only at run time.
            if word.text.hasPrefix("@") || word.text.contains("{") { continue }
            guard block.taken.contains(word.text) else {
                found.append((word, block.refusal.replacingOccurrences(of: "{word}", with: word.text)))
                continue
            }
            guard inner.contains(where: { $0.text == "{" && !$0.isQuoted }) else { continue }
            // A block inside is named by its word and, where it names a module, the module.
            if inner.count > 1, blocks[path + ">" + word.text + " " + inner[1].text] != nil {
                collect(inner, path: path + ">" + word.text + " " + inner[1].text, into: &found)
            } else {
                collect(inner, path: path + ">" + word.text, into: &found)
            }
        }
    }
}
