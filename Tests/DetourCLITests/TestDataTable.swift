import Foundation

/// The tab-separated tables beside these tests (the relevance suite, the Debian commands the
/// articles name, the log lines left unexplained): each row's fields, lines of comment (`# …`)
/// and rows without `fields` columns left out. A row may start with `#` followed by no space
/// (`#0 {main}`).
enum TestDataTable {
    static func rows(_ relative: String, fields: Int) -> [[String]] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(relative)
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { !$0.hasPrefix("# ") }.compactMap { line in
            let row = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return row.count == fields ? row : nil
        }
    }
}
