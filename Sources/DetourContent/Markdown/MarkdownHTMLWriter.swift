/// Writes a `MarkdownNode` tree as HTML, byte for byte as cmark-gfm writes CommonMark and its
/// table, strikethrough, autolink, task-list, footnote and tagfilter extensions (so the two can be compared), plus
/// what a help page adds when asked: heading ids and anchors, highlighted code, alerts.
struct MarkdownHTMLWriter {
    struct Options {
        var allowRawHTML = false
        /// Ids for the headings in document order; none when empty.
        var headingIDs: [String] = []
        /// A `#` link after each heading with an id.
        var headingAnchors = false
        /// The destination to write for a link or image at a line.
        var resolveLink: (String, Int) -> String = { url, _ in url }
        /// The inner HTML of a code block's `<code>`, or nil to escape the text as it is.
        var highlight: (_ info: String, _ code: String) -> String? = { _, _ in nil }
        var alertTitle: (MarkdownNode.AlertKind) -> String = { $0.rawValue.prefix(1).uppercased() + $0.rawValue.dropFirst() }
        /// What a footnote's links back to the text say to a screen reader.
        var backReferenceLabel = "Back to content"
    }

    let options: Options
    private var html = ""
    private var headingIndex = 0

    init(options: Options) {
        self.options = options
    }

    static func render(_ root: MarkdownNode, options: Options) -> String {
        var writer = MarkdownHTMLWriter(options: options)
        writer.write(root, tight: false)
        return writer.html
    }

    private mutating func cr() {
        if let last = html.utf8.last, last != UInt8(ascii: "\n") { html += "\n" }
    }

    private mutating func children(_ node: MarkdownNode, tight: Bool = false) {
        for child in node.children { write(child, tight: tight) }
    }

    /// `tight`: the node sits in an item of a tight list, where paragraphs lose their `<p>`.
    private mutating func write(_ node: MarkdownNode, tight: Bool) {
        switch node.kind {
        case .document:
            children(node)
        case .blockQuote:
            cr()
            html += "<blockquote>\n"
            children(node)
            cr()
            html += "</blockquote>\n"
        case .alert(let kind):
            cr()
            html += "<div class=\"markdown-alert markdown-alert-\(kind.rawValue)\">\n<p class=\"markdown-alert-title\">"
            html += Self.escape(options.alertTitle(kind)) + "</p>\n"
            children(node)
            cr()
            html += "</div>\n"
        case .list(let ordered, let start, let isTight):
            cr()
            html += ordered ? (start == 1 ? "<ol>\n" : "<ol start=\"\(start)\">\n") : "<ul>\n"
            for item in node.children { write(item, tight: isTight) }
            html += ordered ? "</ol>\n" : "</ul>\n"
        case .item(let checked):
            cr()
            html += "<li>"
            if let checked { html += checked ? "<input type=\"checkbox\" checked=\"\" disabled=\"\" /> " : "<input type=\"checkbox\" disabled=\"\" /> " }
            children(node, tight: tight)
            html += "</li>\n"
        case .heading(let level):
            cr()
            let id = headingIndex < options.headingIDs.count ? options.headingIDs[headingIndex] : nil
            headingIndex += 1
            html += id.map { "<h\(level) id=\"\(Self.escape($0))\">" } ?? "<h\(level)>"
            children(node)
            // Named by the heading's own text, so it reads the same in every language.
            if let id, options.headingAnchors {
                html += "<a class=\"anchor\" href=\"#\(Self.escape(id))\" aria-label=\"\(Self.escape(node.plainText))\">#</a>"
            }
            html += "</h\(level)>\n"
        case .codeBlock(let info, let literal):
            cr()
            let language = String(info.prefix { !CharacterClass.isASCIISpace($0.unicodeScalars.first!) })
            if language.isEmpty {
                html += "<pre><code>"
            } else {
                html += "<pre><code class=\"" + (language.hasPrefix("language-") ? "" : "language-") + Self.escape(language) + "\">"
            }
            html += options.highlight(language, literal) ?? Self.escape(literal)
            html += "</code></pre>\n"
        case .htmlBlock(let literal):
            cr()
            html += options.allowRawHTML ? TagFilter.apply(literal) : "<!-- raw HTML omitted -->"
            cr()
        case .thematicBreak:
            cr()
            html += "<hr />\n"
        case .paragraph:
            if tight {
                children(node)
            } else {
                cr()
                html += "<p>"
                children(node)
                html += "</p>\n"
            }
        case .table:
            cr()
            html += "<table>\n"
            var inBody = false
            for row in node.children {
                if case .tableRow(header: true) = row.kind {
                    html += "<thead>\n"
                    write(row, tight: false)
                    html += "</thead>\n"
                } else {
                    if !inBody { html += "<tbody>\n" }
                    inBody = true
                    write(row, tight: false)
                }
            }
            if inBody { html += "</tbody>\n" }
            html += "</table>\n"
        case .tableRow:
            cr()
            html += "<tr>\n"
            children(node)
            cr()
            html += "</tr>\n"
        case .tableCell(let header, let alignment):
            cr()
            let tag = header ? "th" : "td"
            switch alignment {
            case .none: html += "<\(tag)>"
            case .left: html += "<\(tag) align=\"left\">"
            case .center: html += "<\(tag) align=\"center\">"
            case .right: html += "<\(tag) align=\"right\">"
            }
            children(node)
            html += "</\(tag)>\n"
        case .text(let literal):
            html += Self.escape(literal)
        case .softBreak:
            html += "\n"
        case .lineBreak:
            html += "<br />\n"
        case .code(let literal):
            html += "<code>" + Self.escape(literal) + "</code>"
        case .htmlInline(let literal):
            html += options.allowRawHTML ? TagFilter.apply(literal) : "<!-- raw HTML omitted -->"
        case .emphasis:
            inline(node, open: "<em>", close: "</em>")
        case .strong:
            inline(node, open: "<strong>", close: "</strong>")
        case .strikethrough:
            inline(node, open: "<del>", close: "</del>")
        case .link(let url, let title):
            html += "<a href=\"" + href(url, line: node.line) + "\""
            if !title.isEmpty { html += " title=\"" + Self.escape(title) + "\"" }
            html += ">"
            children(node)
            html += "</a>"
        case .footnoteReference(let label, let number, let occurrence):
            let suffix = occurrence > 1 ? "-\(occurrence)" : ""
            html +=
                "<sup class=\"footnote-ref\"><a href=\"#fn-\(Self.escapeHref(label))\" id=\"fnref-\(Self.escapeHref(label))\(suffix)\" data-footnote-ref>\(number)</a></sup>"
        case .footnotes:
            cr()
            html += "<section class=\"footnotes\" data-footnotes>\n<ol>\n"
            children(node)
            html += "</ol>\n</section>\n"
        case .footnoteDefinition(let label, let references):
            cr()
            html += "<li id=\"fn-\(Self.escapeHref(label))\">\n"
            // The links back go at the end of the last paragraph, or on a line of their own.
            if let last = node.children.last, last.kind == .paragraph {
                for child in node.children.dropLast() { write(child, tight: false) }
                cr()
                html += "<p>"
                children(last)
                html += " " + backReferences(label, count: references) + "</p>\n"
            } else {
                children(node)
                cr()
                html += backReferences(label, count: references) + "\n"
            }
            html += "</li>\n"
        case .image(let url, let title):
            html += "<img src=\"" + href(url, line: node.line) + "\" alt=\"" + Self.escape(Self.altText(node)) + "\""
            if !title.isEmpty { html += " title=\"" + Self.escape(title) + "\"" }
            html += " />"
        }
    }

    /// One link back to each reference to the footnote, the second and later numbered.
    private func backReferences(_ label: String, count: Int) -> String {
        (1...max(count, 1)).map { occurrence in
            let id = "fnref-" + Self.escapeHref(label) + (occurrence > 1 ? "-\(occurrence)" : "")
            let mark = occurrence > 1 ? "\u{21A9}<sup class=\"footnote-ref\">\(occurrence)</sup>" : "\u{21A9}"
            return "<a href=\"#\(id)\" class=\"footnote-backref\" data-footnote-backref aria-label=\"\(Self.escape(options.backReferenceLabel))\">\(mark)</a>"
        }.joined(separator: " ")
    }

    private mutating func inline(_ node: MarkdownNode, open: String, close: String) {
        html += open
        children(node)
        html += close
    }

    private func href(_ url: String, line: Int) -> String {
        let resolved = options.resolveLink(url, line)
        if !options.allowRawHTML, Self.isDangerous(resolved) { return "" }
        return Self.escapeHref(resolved)
    }

    /// An image's alt text: its inlines' text, raw HTML kept as text, breaks as spaces.
    private static func altText(_ node: MarkdownNode) -> String {
        var text = ""
        for child in node.children {
            switch child.kind {
            case .text(let literal), .code(let literal), .htmlInline(let literal): text += literal
            case .softBreak, .lineBreak: text += " "
            default: text += altText(child)
            }
        }
        return text
    }

    /// `javascript:`, `vbscript:`, `file:` and non-image `data:` URLs are written empty.
    static func isDangerous(_ url: String) -> Bool {
        let lowered = url.lowercased()
        if lowered.hasPrefix("javascript:") || lowered.hasPrefix("vbscript:") || lowered.hasPrefix("file:") { return true }
        guard lowered.hasPrefix("data:") else { return false }
        return !["data:image/png", "data:image/gif", "data:image/jpeg", "data:image/webp"].contains { lowered.hasPrefix($0) }
    }

    /// `&`, `<`, `>` and `"` as entities: what cmark escapes in text and attributes.
    static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 }) else { return text }
        var escaped = ""
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// A URL in an attribute: characters outside URLs' own set percent-encoded, `&` and `'` as
    /// entities, the rest as written (an existing `%XX` stays).
    static func escapeHref(_ url: String) -> String {
        var escaped = ""
        for byte in url.utf8 {
            switch byte {
            case UInt8(ascii: "&"): escaped += "&amp;"
            case UInt8(ascii: "'"): escaped += "&#x27;"
            default:
                if hrefSafe(byte) {
                    escaped.unicodeScalars.append(Unicode.Scalar(byte))
                } else {
                    escaped += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
                }
            }
        }
        return escaped
    }

    private static func hrefSafe(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return true
        default: return "-_.+!*(),%#@?=;:/$~".utf8.contains(byte)
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
