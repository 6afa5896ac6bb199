import DetourDiagnostics

/// `content/translations/<language>.yml`: the UI strings and per-code texts of one language.
public struct Translation: Sendable {
    /// A code's visitor-facing texts in one language; nil fields fall back to the default language.
    public struct CodeText: Sendable {
        public var title: String?
        public var summary: String?
        public var advice: Located<String>?
        /// Where the code's entry is written, for warnings about it.
        public var location: SourceLocation

        public init(title: String?, summary: String?, advice: Located<String>?, location: SourceLocation) {
            self.title = title
            self.summary = summary
            self.advice = advice
            self.location = location
        }
    }

    public var language: String
    public var strings: [String: String]
    public var codes: [Int: CodeText]
    /// Path relative to the content folder, for relative `.md` links in advice.
    public var relativePath: String
    public var location: SourceLocation

    public init(language: String, strings: [String: String] = [:], codes: [Int: CodeText] = [:], relativePath: String, location: SourceLocation) {
        self.language = language
        self.strings = strings
        self.codes = codes
        self.relativePath = relativePath
        self.location = location
    }
}
