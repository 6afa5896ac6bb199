import DetourDiagnostics

/// One `error_page` directive: `error_page 500 502 [=[code]] target;`.
struct NginxErrorPage: Sendable {
    enum StatusOverride: Sendable, Equatable {
        /// The client gets the original status.
        case none
        /// `=`: the status of the page's own response.
        case fromTarget
        /// `=code`.
        case status(Int)
    }

    var codes: [Int]
    var statusOverride: StatusOverride
    var target: String
    var directive: NginxDirective

    var isNamedLocation: Bool { target.hasPrefix("@") }
    var hasVariables: Bool { target.utf8.contains(UInt8(ascii: "$")) }
    /// Where the target was written: findings about it point there.
    var targetLocation: SourceLocation { directive.location(ofArgument: directive.argumentCount - 1) ?? directive.location }

    /// The URI part of the target, without a query string.
    var path: String {
        guard let question = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return target }
        return String(target[..<question])
    }

    /// Most files one variable target is followed to; beyond it the target counts as dynamic.
    static let expansionLimit = 256

    /// Reads the directive; empty (with a diagnostic) when nginx would refuse it. A target built
    /// from `$status` and from variables a `map` gives literal values
    /// (`/errors/$lang/$status.$format`) becomes one page per file it can lead to, so each file
    /// is checked; the map's default comes first.
    static func read(_ directive: NginxDirective, variables: [String: [String]] = [:], diagnostics: inout [Diagnostic]) -> [NginxErrorPage] {
        guard let page = readWritten(directive, diagnostics: &diagnostics) else { return [] }
        guard page.hasVariables, !page.isNamedLocation else { return [page] }
        let names = NginxVariables.names(in: page.target).filter { $0 != "status" }
        var pages: [NginxErrorPage] = []
        for code in page.codes {
            // With `=code` nginx sets the status before it builds the target.
            let status = if case .status(let override) = page.statusOverride { override } else { code }
            var choices: [[String: String]] = [["status": String(status)]]
            for name in names {
                guard let values = variables[name] else { return [page] }
                choices = choices.flatMap { chosen in values.map { chosen.merging([name: $0]) { _, new in new } } }
                if choices.count > expansionLimit { return [page] }
            }
            for values in choices {
                guard let target = NginxVariables.expand(page.target, values) else { return [page] }
                if let same = pages.firstIndex(where: { $0.target == target }) {
                    if !pages[same].codes.contains(code) { pages[same].codes.append(code) }
                } else {
                    pages.append(NginxErrorPage(codes: [code], statusOverride: page.statusOverride, target: target, directive: directive))
                }
            }
        }
        return pages
    }

    /// The directive as written: its codes, override and target.
    private static func readWritten(_ directive: NginxDirective, diagnostics: inout [Diagnostic]) -> NginxErrorPage? {
        let count = directive.argumentCount
        guard count >= 2, let target = directive.lastValue else {
            diagnostics.append(.error(NginxRules.syntax.id, "invalid number of arguments in \"error_page\" directive", at: directive.location))
            return nil
        }
        var codes: [Int] = []
        var statusOverride = StatusOverride.none
        for index in 0..<count - 1 {
            let value = directive.value(at: index) ?? ""
            let location = directive.location(ofArgument: index) ?? directive.location
            if value.hasPrefix("=") {
                if value == "=" {
                    statusOverride = .fromTarget
                } else if let code = Int(value.dropFirst()) {
                    statusOverride = .status(code)
                } else {
                    diagnostics.append(.error(NginxRules.syntax.id, "invalid value \"\(value)\" in \"error_page\"", at: location))
                    return nil
                }
            } else if let code = Int(value), (300...599).contains(code) {
                codes.append(code)
            } else {
                diagnostics.append(.error(NginxRules.syntax.id, "value \"\(value)\" must be between 300 and 599 in \"error_page\"", at: location))
                return nil
            }
        }
        return NginxErrorPage(codes: codes, statusOverride: statusOverride, target: target, directive: directive)
    }
}
