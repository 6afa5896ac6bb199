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

        public init(main: URL, mainDisplay: String, pages: URL?, maps: [PagePathMap]) {
            self.main = main
            self.mainDisplay = mainDisplay
            self.pages = pages
            self.maps = maps
        }
    }

    public struct Report: Sendable {
        public var diagnostics: [Diagnostic]
        public var coverage: [SiteCoverage]
        /// Every file read, the main one and what it includes.
        public var files: [String]

        public init(diagnostics: [Diagnostic], coverage: [SiteCoverage], files: [String]) {
            self.diagnostics = diagnostics
            self.coverage = coverage
            self.files = files
        }
    }
}
