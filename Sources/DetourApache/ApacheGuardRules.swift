/// What a `Require` (or `AuthType`) line says of its section: it keeps visitors out, unless it
/// is `all granted`, a negation, or the `expr` on `REDIRECT_STATUS` that lets error documents
/// through (as detour's snippet does). Apache applies the most specific `<Directory>` and the
/// last `<Location>` that match, so lines that let visitors in are kept too.
enum ApacheGuardRules {
    static func guarding(_ line: ApacheScopeReader.Line, in section: ApacheScopeReader.Section) -> ApacheGuard? {
        let written = line.arguments
        let arguments = written.map { $0.lowercased() }
        let isRequire = line.name == .require
        var denies = true
        if isRequire {
            if arguments.first == "all", arguments.dropFirst().first == "granted" { denies = false }
            if arguments.first == "expr", written.joined(separator: " ").contains("REDIRECT_STATUS") { denies = false }
            if arguments.first == "not" { denies = false }
        } else if arguments.first == "none" {
            denies = false
        }
        let what = ([isRequire ? "Require" : "AuthType"] + written).joined(separator: " ")
        guard let place = section.argument else { return nil }
        switch section.name {
        case .location: return ApacheGuard(subject: .url(place), location: line.location, what: what, denies: denies)
        case .directory:
            return ApacheGuard(
                subject: .folder(place.hasSuffix("/") && place.count > 1 ? String(place.dropLast()) : place), location: line.location, what: what,
                denies: denies)
        default: return nil
        }
    }
}
