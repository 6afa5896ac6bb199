import DetourDiagnostics
import DetourSupport
import Foundation

/// A `location` block with what decides how it answers; also an `if` block inside one, which
/// nginx runs as a location of its own when its condition holds.
final class NginxLocation: Sendable {
    enum Match: Equatable {
        case exact, preferredPrefix, prefix, named
        case regex(caseless: Bool)
        /// `if (…)`: no URI selects it, its settings apply when the condition holds.
        case condition
    }

    let match: Match
    let pattern: String
    let directive: NginxDirective
    /// Settings in effect inside this location.
    let scope: NginxScope
    /// The scope this location inherited, before its own directives.
    let inherited: NginxScope
    let children: [NginxLocation]
    /// Compiled on first use: most regex locations never meet a page URI.
    private let compiled = Memo<NSRegularExpression?>()
    private var regex: NSRegularExpression? {
        compiled.value {
            guard case .regex(let caseless) = match else { return nil }
            return NginxRegex.compile(pattern, caseless: caseless)
        }
    }

    init(directive: NginxDirective, inherited: NginxScope, diagnostics: inout [Diagnostic]) {
        self.directive = directive
        self.inherited = inherited
        let values = directive.values
        switch (values.count, values.first) {
        case _ where directive.kind == .if: (match, pattern) = (.condition, values.joined(separator: " "))
        case (2, "="): (match, pattern) = (.exact, values[1])
        case (2, "^~"): (match, pattern) = (.preferredPrefix, values[1])
        case (2, "~"): (match, pattern) = (.regex(caseless: false), values[1])
        case (2, "~*"): (match, pattern) = (.regex(caseless: true), values[1])
        default:
            let pattern = values.first ?? ""
            (match, self.pattern) = (pattern.hasPrefix("@") ? .named : .prefix, pattern)
        }
        scope = inherited.entering(directive, diagnostics: &diagnostics)
        // Read once here: every rule asks, for every location.
        var isInternal = false
        var definesErrorPages = false
        var alias: NginxDirective?
        var returnDirective: NginxDirective?
        var tryFiles: NginxDirective?
        var upstreamPass: (NginxDirective, String)?
        for child in directive.children {
            switch child.kind {
            case .internal: isInternal = true
            case .errorPage: definesErrorPages = true
            case .alias: alias = alias ?? child
            case .return: returnDirective = returnDirective ?? child
            case .tryFiles: tryFiles = tryFiles ?? child
            case let kind?:
                if upstreamPass == nil, let module = kind.passModule { upstreamPass = (child, module) }
            case nil:
                break
            }
        }
        self.isInternal = isInternal
        self.definesErrorPages = definesErrorPages
        self.alias = alias
        self.returnDirective = returnDirective
        self.tryFiles = tryFiles
        self.upstreamPass = upstreamPass
        let ownScope = scope
        children = directive.children.filter { $0.kind == .location || $0.kind == .if }.map {
            NginxLocation(directive: $0, inherited: ownScope, diagnostics: &diagnostics)
        }
    }

    let isInternal: Bool
    /// Whether this location has `error_page` lines of its own (which replace inherited ones).
    let definesErrorPages: Bool
    let alias: NginxDirective?
    let returnDirective: NginxDirective?
    let tryFiles: NginxDirective?
    /// `proxy_pass`, `fastcgi_pass`, … and its module name, if this location hands requests on.
    let upstreamPass: (directive: NginxDirective, module: String)?

    func matches(_ uri: String) -> Bool {
        switch match {
        case .exact: uri == pattern
        case .prefix, .preferredPrefix: uri.hasPrefix(pattern)
        case .named, .condition: false
        case .regex:
            regex.map { $0.firstMatch(in: uri, range: NSRange(uri.startIndex..., in: uri)) != nil } ?? false
        }
    }

    /// What a regex location captured from `uri`: `1`, `2`, … and named groups (a group that
    /// took no part is empty, as in nginx); nil when this is no regex location or it does not match.
    func captures(in uri: String) -> [String: String]? {
        guard case .regex = match, let regex, let result = regex.firstMatch(in: uri, range: NSRange(uri.startIndex..., in: uri)) else { return nil }
        var values: [String: String] = [:]
        func text(_ range: NSRange) -> String { Range(range, in: uri).map { String(uri[$0]) } ?? "" }
        for group in 0..<result.numberOfRanges { values[String(group)] = text(result.range(at: group)) }
        for name in Self.groupNames(in: pattern) { values[name] = text(result.range(withName: name)) }
        return values
    }

    /// The names of `(?<name>…)` and `(?P<name>…)` groups, which nginx offers as `$name`.
    private static func groupNames(in pattern: String) -> [String] {
        var names: [String] = []
        var rest = Substring(pattern)
        while let open = rest.range(of: "(?") {
            rest = rest[open.upperBound...]
            if rest.hasPrefix("P") { rest = rest.dropFirst() }
            guard rest.hasPrefix("<"), let close = rest.firstIndex(of: ">") else { continue }
            let name = rest[rest.index(after: rest.startIndex)..<close]
            if !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) { names.append(String(name)) }
        }
        return names
    }

    /// How findings name it: `location '/api/'`, or `'if ($debug)' block`.
    var description: String { match == .condition ? "'if \(pattern)' block" : "location '\(pattern)'" }

    /// Every location here and below, depth first.
    var allLocations: [NginxLocation] { [self] + children.flatMap(\.allLocations) }
}
