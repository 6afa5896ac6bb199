import DetourDiagnostics

/// One directive of a proxy configuration, as plain data: name, arguments and, for block
/// directives, the directives inside. Shared by every server's parser; includes are already
/// spliced in, each directive keeping the file and line it came from.
public struct ConfigDirective: Sendable, Equatable {
    public struct Argument: Sendable, Equatable {
        /// The value after escapes (`\"`, `\t`, …) were processed and quotes removed.
        public var value: String
        /// Whether it was written in quotes, which keeps `{`, `;` and spaces literal.
        public var isQuoted: Bool
        public var location: SourceLocation

        public init(_ value: String, isQuoted: Bool = false, at location: SourceLocation) {
            self.value = value
            self.isQuoted = isQuoted
            self.location = location
        }
    }

    public var name: String
    public var arguments: [Argument]
    /// nil for a simple directive (`root /srv;`), the contents for a block (`server { … }`).
    public var block: [ConfigDirective]?
    public var location: SourceLocation

    public init(name: String, arguments: [Argument] = [], block: [ConfigDirective]? = nil, at location: SourceLocation) {
        self.name = name
        self.arguments = arguments
        self.block = block
        self.location = location
    }

    public var values: [String] { arguments.map(\.value) }
}
