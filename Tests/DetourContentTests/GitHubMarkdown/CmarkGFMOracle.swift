import DetourTestSupport
import Foundation
import XCTest

@testable import DetourContent

/// Debian's `cmark-gfm` with GitHub's extensions, as the judge of how detour renders Markdown:
/// the options a site chooses turned into its flags (`--smart`, `--unsafe` with the tagfilter).
struct CmarkGFMOracle {
    let executable: URL

    init(file: StaticString = #filePath, line: UInt = #line) throws {
        executable = try RequiredTool.find("cmark-gfm", file: file, line: line)
    }

    static func arguments(_ options: MarkdownOptions) -> [String] {
        var arguments = ["-e", "table", "-e", "strikethrough", "-e", "autolink", "-e", "tasklist", "-e", "footnotes"]
        if options.smartPunctuation { arguments.append("--smart") }
        if options.rawHTML { arguments += ["--unsafe", "-e", "tagfilter"] }
        return arguments
    }

    /// Each document whose HTML differs from cmark-gfm's (up to white space between tags and the
    /// order of attributes), with both renderings.
    func disagreements(_ documents: [(name: String, markdown: String)], options: MarkdownOptions) throws -> [String] {
        var found: [String] = []
        for (name, markdown) in documents {
            let expected = try ProcessRunner.run(executable, Self.arguments(options), input: Data(markdown.utf8))
            XCTAssertEqual(expected.status, 0, expected.stderr)
            let actual = MarkdownDocument(markdown, options: options).plainHTML()
            if HTMLComparison.normalize(actual) != HTMLComparison.normalize(Self.withAlerts(expected.stdout)) {
                found.append("\(name):\n\(markdown)\ncmark-gfm:\n\(expected.stdout)\ndetour:\n\(actual)")
            }
        }
        return found
    }

    /// cmark-gfm's HTML with GitHub's alerts, which its 0.29 does not know: a block quote whose
    /// first paragraph starts with `[!NOTE]` (`TIP`, `IMPORTANT`, `WARNING`, `CAUTION`, any case) on
    /// a line of its own becomes the alert GitHub shows, titled by its kind.
    static func withAlerts(_ html: String) -> String {
        var out = ""
        var rest = Substring(html)
        var alerts: [Bool] = []
        let open = "<blockquote>\n<p>[!"
        while let tag = rest.firstRange(of: #/<blockquote>|</blockquote>/#) {
            out += rest[..<tag.lowerBound]
            let isOpen = rest[tag] == "<blockquote>"
            rest = rest[tag.upperBound...]
            guard isOpen else {
                out += alerts.popLast() == true ? "</div>" : "</blockquote>"
                continue
            }
            let marker = (String("<blockquote>") + rest).prefix(open.count + 12)
            let kind = MarkdownNode.AlertKind.allCases.first { kind in
                marker.lowercased().hasPrefix(open + kind.rawValue + "]")
            }
            let after = kind.map { rest.dropFirst(open.count - "<blockquote>".count + $0.rawValue.count + 1) }
            guard let kind, let after, let ending = ["\n", "<br />\n", "</p>\n"].first(where: { after.hasPrefix($0) }) else {
                out += "<blockquote>"
                alerts.append(false)
                continue
            }
            let title = kind.rawValue.prefix(1).uppercased() + kind.rawValue.dropFirst()
            out += "<div class=\"markdown-alert markdown-alert-\(kind.rawValue)\">\n<p class=\"markdown-alert-title\">\(title)</p>\n"
            out += ending == "</p>\n" ? "" : "<p>"
            rest = after.dropFirst(ending.count)
            alerts.append(true)
        }
        return out + rest
    }
}
