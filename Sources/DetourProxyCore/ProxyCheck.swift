import DetourDiagnostics
import Foundation

/// What `detour check` is given and what it finds, for any server.
public enum ProxyCheck {
    public struct Options: Sendable {
        public var main: URL
        /// The main file as the user named it, for messages.
        public var mainDisplay: String
        /// detour's generated pages (`public/errors`): which codes should be covered.
        public var pages: URL?
        public var maps: [PagePathMap]
        /// The server version to read the configuration as (`--caddy-version`); nil: the
        /// installed server's, else the one Debian 12 ships.
        public var serverVersion: String?
        /// Files read after the main one, each with how it is shown (`haproxy -f a -f b`).
        public var more: [(url: URL, display: String)]
        /// Where relative paths start when the configuration names no ServerRoot (`--server-root`, Apache).
        public var serverRoot: String?

        public init(
            main: URL, mainDisplay: String, pages: URL?, maps: [PagePathMap], serverVersion: String? = nil, more: [(url: URL, display: String)] = [],
            serverRoot: String? = nil
        ) {
            self.main = main
            self.mainDisplay = mainDisplay
            self.pages = pages
            self.maps = maps
            self.serverVersion = serverVersion
            self.more = more
            self.serverRoot = serverRoot
        }
    }

    public struct Report: Sendable {
        /// Each finding once: routes, rules and sites that reach the same line say the same thing.
        public var diagnostics: [Diagnostic]
        public var coverage: [SiteCoverage]
        /// Every file read, the main one and what it includes.
        public var files: [String]
        /// What the check built (the configuration as read and its model). A caller that ends
        /// the process after the report can leave it to the system: freeing a large
        /// configuration's hundreds of thousands of pieces one by one takes milliseconds.
        public var built: (any Sendable)?
        /// Every page file the configuration names, as looked for here.
        public var pageFiles: [PageFile]

        public init(
            diagnostics: [Diagnostic], coverage: [SiteCoverage], files: [String], built: (any Sendable)? = nil, pageFiles: [PageFile] = []
        ) {
            self.diagnostics = diagnostics.removingDuplicates()
            self.coverage = coverage
            self.files = files
            self.built = built
            self.pageFiles = pageFiles
        }
    }
}
