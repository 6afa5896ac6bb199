import DetourContent
import DetourDiagnostics
import Foundation
import Mustache

/// The theme: every `templates/**/*.mustache`, registered under its path without the extension
/// (`article`, `partials/head`), as swift-mustache's own folder loader names them. With
/// `LazyText`, the only code that touches swift-mustache. Files in `templates/assets/` are the
/// theme's static files (`search.js`), copied to the site root as they are.
public struct TemplateSet: Sendable {
    /// Templates the build renders directly; partials are whatever these include.
    public static let required = OutputFormat.all.compactMap(\.template) + ["index", "code", "article", "tag", "style.css"]

    private let library: MustacheLibrary

    private init(library: MustacheLibrary, names: [String], root: URL, assets: [String]) {
        self.library = library
        self.names = names
        self.root = root
        self.assets = assets
    }

    /// Parses every template, reporting syntax errors, missing required templates and partials
    /// that name no template (swift-mustache would silently render those as empty text).
    public static func load(from root: URL, displayRoot: String) -> (TemplateSet?, [Diagnostic]) {
        let displayRoot = displayRoot.hasSuffix("/") ? String(displayRoot.dropLast()) : displayRoot
        var diagnostics: [Diagnostic] = []
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return (nil, [.error("template.missing-folder", "templates folder '\(displayRoot)' does not exist", at: SourceLocation(path: displayRoot))])
        }

        MustacheContentTypes.register(JSONContentType(), named: "JSON")
        var library = MustacheLibrary()
        var sources: [String: SourceFile] = [:]
        for relative in DirectoryWalker.files(under: root.path, suffixes: [".mustache"]) {
            let name = String(relative.dropLast(".mustache".count))
            let displayPath = displayRoot + "/" + relative
            switch SourceFile.read(root.appendingPathComponent(relative), displayPath: displayPath) {
            case .failure(let diagnostic):
                diagnostics.append(diagnostic)
            case .success(let file):
                sources[name] = file
                do {
                    library.register(try MustacheTemplate(string: file.text), named: name)
                } catch let error as MustacheTemplate.ParserError {
                    let location = SourceLocation(path: displayPath, line: error.context.lineNumber, column: error.context.columnNumber + 1)
                    diagnostics.append(.error("template.syntax", "invalid Mustache: \(describe(error.error))", at: location))
                } catch {
                    diagnostics.append(.error("template.syntax", "invalid Mustache: \(error)", at: file.start))
                }
            }
        }

        for name in required where sources[name] == nil {
            diagnostics.append(.error("template.missing", "required template '\(name)' is missing; create \(displayRoot)/\(name).mustache", at: SourceLocation(path: "\(displayRoot)/\(name).mustache")))
        }
        for (name, file) in sources.sorted(by: { $0.key < $1.key }) {
            for reference in PartialReference.scan(file.text) where sources[reference.name] == nil {
                var message = "partial '\(reference.name)' used by template '\(name)' does not exist"
                if let suggestion = Suggestion.closest(to: reference.name, among: Array(sources.keys)) { message += "; did you mean '\(suggestion)'?" }
                diagnostics.append(.error("template.missing-partial", message, at: SourceLocation(path: file.displayPath, line: reference.line, column: reference.column)))
            }
        }
        let assets = DirectoryWalker.list(root.path, suffixes: [""], below: Self.assetsFolder)
        for link in assets.escapingLinks {
            diagnostics.append(.error("file.path-escape", "'\(link)' links to a file outside \(displayRoot)/; copy the file in instead", at: SourceLocation(path: displayRoot + "/" + link)))
        }
        let theme = TemplateSet(library: library, names: sources.keys.sorted(), root: root, assets: assets.files.filter { !$0.hasSuffix(".mustache") })
        return (diagnostics.hasErrors ? nil : theme, diagnostics)
    }

    /// Every registered template name.
    public let names: [String]
    public let root: URL
    /// Static files, relative to the templates folder (`assets/search.js`).
    public let assets: [String]
    public static let assetsFolder = "assets"

    /// Where an asset is written, relative to the site root.
    public static func outputPath(ofAsset asset: String) -> String { String(asset.dropFirst(assetsFolder.count + 1)) }

    public func has(_ name: String) -> Bool {
        library.getTemplate(named: name) != nil
    }

    public func render(_ name: String, _ context: [String: Any]) -> String {
        library.render(context, withTemplate: name) ?? ""
    }

    private static func describe(_ error: Error) -> String {
        switch error as? MustacheTemplate.Error {
        case .sectionCloseNameIncorrect: "closing tag does not match the open section"
        case .unfinishedName: "tag is not closed with '}}'"
        case .expectedSectionEnd: "section is never closed ({{/name}} missing)"
        case .invalidSetDelimiter: "invalid set-delimiter tag"
        case .transformAppliedToInheritanceSection: "a transform cannot apply to an inheritance section"
        case .illegalTokenInsideInheritSection, .textInsideInheritSection: "only block definitions may appear inside a parent partial"
        case .invalidConfigVariableSyntax, .unrecognisedConfigVariable: "invalid pragma tag"
        // swift-mustache's scanner reports running off the end as "overflow".
        case nil: "\(error)" == "overflow" ? "a tag is still open at the end of the file" : "\(error)"
        }
    }
}
