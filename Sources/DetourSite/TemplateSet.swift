import DetourContent
import DetourDiagnostics
import DetourSupport
import DetourTemplates
import DetourYAML
import Foundation
import Mustache

/// The theme: every `**/*.mustache` of the built-in theme and the project's templates folder
/// (see `ThemeFiles`), registered under its path without the extension (`article`,
/// `partials/head`), as swift-mustache's own folder loader names them. swift-mustache checks
/// the syntax; pages render through `CompiledTemplates` (typed values, one output buffer),
/// unless the theme uses what that does not compile (inheritance, dynamic partials): then
/// swift-mustache renders it. With `LazyText`, the only code that touches swift-mustache.
/// Files in `assets/` are the theme's static files (`search.js`), copied to the site root as
/// they are, scripts without their comments and the spaces their tokens do without (`ScriptMinifier`).
public struct TemplateSet: Sendable {
    private let library: MustacheLibrary
    private let compiled: CompiledTemplates?

    /// Where each template is written, for problems found when it renders.
    private let files: [String: String]

    private init(library: MustacheLibrary, compiled: CompiledTemplates?, files: [String: String], assets: [String: [UInt8]]) {
        self.library = library
        self.compiled = compiled
        self.files = files
        self.names = files.keys.sorted()
        self.assetBytes = assets
    }

    /// Parses every template, reporting syntax errors and partials that name no template
    /// (swift-mustache would silently render those as empty text). Every template the build
    /// renders is in the built-in theme, so none can be missing.
    /// - Parameter folderRequired: `root` was named by the user, so it must exist.
    public static func load(from root: URL, displayRoot: String, folderRequired: Bool = true) -> (TemplateSet?, [Diagnostic]) {
        let displayRoot = displayRoot.hasSuffix("/") ? String(displayRoot.dropLast()) : displayRoot
        let (gathered, gatherDiagnostics) = ThemeFiles.gather(folder: root, displayRoot: displayRoot, folderRequired: folderRequired)
        var diagnostics = gatherDiagnostics
        guard let theme = gathered else { return (nil, diagnostics) }

        MustacheContentTypes.register(JSONContentType(), named: "JSON")
        var library = MustacheLibrary()
        var sources: [String: SourceFile] = [:]
        var assets: [String: [UInt8]] = [:]
        for (path, file) in theme.files.sorted(by: { $0.key < $1.key }) {
            let displayPath = file.displayPath
            guard path.hasSuffix(".mustache") else {
                if path.hasPrefix(assetsFolder + "/") { assets[path] = path.hasSuffix(".js") ? ScriptMinifier.minify(file.bytes) : file.bytes }
                continue
            }
            let name = String(path.dropLast(".mustache".count))
            switch SourceFile.decode(file.bytes, url: root.appendingPathComponent(path), displayPath: displayPath) {
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

        for (name, file) in sources.sorted(by: { $0.key < $1.key }) {
            for reference in PartialReference.scan(file.text) where sources[reference.name] == nil {
                var message = "partial '\(reference.name)' used by template '\(name)' does not exist"
                if let suggestion = Suggestion.closest(to: reference.name, among: Array(sources.keys)) { message += "; did you mean '\(suggestion)'?" }
                diagnostics.append(
                    .error("template.missing-partial", message, at: SourceLocation(path: file.displayPath, line: reference.line, column: reference.column)))
            }
        }
        let compiled = diagnostics.hasErrors ? nil : CompiledTemplates(sources: sources.mapValues(\.text))
        let set = TemplateSet(library: library, compiled: compiled, files: sources.mapValues(\.displayPath), assets: assets)
        return (diagnostics.hasErrors ? nil : set, diagnostics)
    }

    /// Every registered template name.
    public let names: [String]
    /// Static files by their path in the theme (`assets/search.js`), as the site gets them.
    public let assetBytes: [String: [UInt8]]
    /// Their paths, sorted.
    public var assets: [String] { assetBytes.keys.sorted() }
    public static let assetsFolder = "assets"

    /// Where an asset is written, relative to the site root.
    public static func outputPath(ofAsset asset: String) -> String { String(asset.dropFirst(assetsFolder.count + 1)) }

    public func has(_ name: String) -> Bool {
        library.getTemplate(named: name) != nil
    }

    /// The template's text for `model`; empty for a name the theme lacks, which the build
    /// never asks for (every template it renders is in the built-in theme).
    func render(_ name: String, _ model: some TemplateValue) -> String {
        if let compiled { return compiled.render(name, model.templateData) ?? "" }
        return library.render(Self.mustacheValue(model.templateData), withTemplate: name) ?? ""
    }

    /// The plain values swift-mustache reads.
    private static func mustacheValue(_ data: TemplateData) -> Any {
        switch data {
        case .text(let text): text
        case .number(let number): number
        case .flag(let flag): flag
        case .list(let items): items.map(mustacheValue)
        case .generated(let list): list.items.map(mustacheValue)
        case .object(let fields): fields.mapValues(mustacheValue)
        case .fields(let fields): fields.dictionary.mapValues(mustacheValue)
        case .deferred(let deferred): (deferred as? any MustacheCustomRenderable).map { $0 as Any } ?? deferred.text
        }
    }

    /// The file template `name` is read from.
    public func location(of name: String) -> SourceLocation {
        SourceLocation(path: files[name] ?? name + ".mustache")
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
