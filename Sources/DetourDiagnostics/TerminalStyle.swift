import Foundation

/// How text findings look on a terminal: severities in colour, rule ids and places in bold, and
/// each place a link to its file (OSC 8) that terminals which know links open on a click. Plain
/// text, byte for byte as before, wherever the output is not a terminal.
public struct TerminalStyle: Sendable {
    public var colors: Bool
    public var links: Bool
    /// The folder relative paths are read from, for the links' `file://` URLs.
    public var base: URL

    public static let plain = TerminalStyle(colors: false, links: false, base: URL(fileURLWithPath: "/"))

    /// `--color`.
    public enum Choice: String, CaseIterable, Sendable {
        case auto, always, never
    }

    public init(colors: Bool, links: Bool, base: URL) {
        self.colors = colors
        self.links = links
        self.base = base
    }

    /// `--color auto|always|never` for output to `descriptor`: `auto` colours a terminal unless
    /// `NO_COLOR` is set and not empty (no-color.org) or `TERM` is `dumb`; `always` colours, a flag
    /// being the user's word over the variable; links only where a terminal is known to be there.
    public static func resolve(_ choice: Choice, descriptor: Int32, environment: [String: String], base: URL) -> TerminalStyle {
        let terminal = isatty(descriptor) == 1 && environment["TERM"] != "dumb"
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        switch choice {
        case .always: return TerminalStyle(colors: true, links: terminal, base: base)
        case .never: return .plain
        case .auto: return terminal && !noColor ? TerminalStyle(colors: true, links: true, base: base) : .plain
        }
    }

    func severity(_ severity: Severity) -> String {
        guard colors else { return severity.rawValue }
        switch severity {
        case .error: return "\u{1B}[1;31m\(severity.rawValue)\u{1B}[0m"
        case .warning: return "\u{1B}[1;35m\(severity.rawValue)\u{1B}[0m"
        case .note: return "\u{1B}[1;36m\(severity.rawValue)\u{1B}[0m"
        }
    }

    func rule(_ rule: String) -> String { bold("[\(rule)]") }

    func bold(_ text: String) -> String { colors ? "\u{1B}[1m\(text)\u{1B}[0m" : text }

    /// A help line: a URL as a link where links are on; a command stays as written.
    func help(_ text: String) -> String {
        guard links, text.hasPrefix("http") else { return text }
        return Self.link(text, to: text)
    }

    /// `text` as an OSC 8 hyperlink to `url`.
    private static func link(_ text: String, to url: String) -> String {
        "\u{1B}]8;;\(url)\u{1B}\\\(text)\u{1B}]8;;\u{1B}\\"
    }

    /// `path:line:col`, bold, and a link to the file where links are on.
    func location(_ location: SourceLocation) -> String {
        let text = bold(location.description)
        guard links else { return text }
        let url = location.path.hasPrefix("/") ? URL(fileURLWithPath: location.path) : base.appendingPathComponent(location.path)
        return Self.link(text, to: url.standardizedFileURL.absoluteString)
    }
}
