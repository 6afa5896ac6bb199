/// The URL paths a `<Location>` or `<LocationMatch>`, a `ProxyPass` or `ProxyPassMatch`, or a
/// `RewriteRule` takes.
enum ApacheURLMatch: Sendable {
    /// A path and what lies under it, at a `/` boundary (`<Location>`, `ProxyPass`).
    case prefix(String)
    case pattern(ApacheRegex)

    /// The match a section stands for: `<Location p>` or `<LocationMatch re>`; nil for others.
    init?(_ section: ApacheScopeReader.Section?) {
        guard let section, let argument = section.argument else { return nil }
        switch section.name {
        case .location: self = .prefix(argument)
        case .locationmatch:
            guard let regex = ApacheRegex(argument) else { return nil }
            self = .pattern(regex)
        default: return nil
        }
    }

    func takes(_ path: String) -> Bool {
        switch self {
        case .prefix(let prefix): ApacheScope.prefix(prefix, covers: path)
        case .pattern(let regex): regex.matches(path)
        }
    }

    /// A path every request it takes starts with: where a page must answer to answer them all.
    var start: String {
        switch self {
        case .prefix(let prefix): prefix
        case .pattern(let regex): regex.literalStart
        }
    }
}
