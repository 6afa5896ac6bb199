/// What the installed Apache 2.4 takes, derived from it by `scripts/apache-directives/derive.py`
/// (`ApacheDirectiveData.swift`): each directive and the modules that add it, the modules whose
/// directives are all known, and the words `Options` and `AllowOverride` take. Apache refuses
/// to start at a directive no loaded module adds, and at a word those two do not know.
struct ApacheDirectiveTable: Sendable {
    static let shared = ApacheDirectiveTable(apacheDirectiveData)

    /// Lowercased name → the modules that add it; empty: compiled in.
    private var directives: [String: [String]] = [:]
    /// The modules probed: a configuration that loads only these has no directive unknown here.
    private(set) var knownModules: Set<String> = []
    /// Lowercased.
    private var options: Set<String> = []
    private var overrides: Set<String> = []

    init(_ data: String) {
        for line in data.split(separator: "\n") {
            let fields = line.split(separator: "\t", maxSplits: 1).map(String.init)
            guard fields.count == 2 else { continue }
            switch fields[0] {
            case "module": knownModules.insert(fields[1])
            case "option": options.insert(fields[1].lowercased())
            case "override": overrides.insert(fields[1].lowercased())
            default: directives[fields[0].lowercased()] = fields[1] == "-" ? [] : fields[1].split(separator: ",").map(String.init)
            }
        }
    }

    /// Whether Apache refuses the directive `name` (`<Proxy` for a section) with `loaded`
    /// modules: the modules that would add it (empty: none does). A module this table does not
    /// know may add any name: then only a known directive whose modules are all missing is refused.
    func missingModules(for name: String, loaded: Set<String>) -> [String]? {
        let known = directives[name.lowercased()]
        if let known, known.isEmpty || known.contains(where: loaded.contains) { return nil }
        if known == nil, !loaded.isSubset(of: knownModules) { return nil }
        return known ?? []
    }

    /// Whether the directive `name` is one a loaded module adds (`<IfDirective>`).
    func isAvailable(_ name: String, loaded: Set<String>) -> Bool {
        guard let known = directives[name.lowercased()] else { return !loaded.isSubset(of: knownModules) }
        return known.isEmpty || known.contains(where: loaded.contains)
    }

    /// Apache's words for `Options` written so; nil where it takes them. As core.c's
    /// set_options reads them: signed and unsigned words do not mix (but after a first None or
    /// All), None and All come first and unsigned.
    func optionsRefusal(_ words: [String]) -> String? {
        let mixed = "Either all Options must start with + or -, or no Option may."
        var first = true
        var merge = false
        var allOrNone = false
        for written in words {
            var word = Substring(written)
            if word.first == "+" || word.first == "-" {
                word = word.dropFirst()
                if !merge, !first, !allOrNone { return mixed }
                merge = true
            } else if !first, merge {
                return mixed
            }
            let lower = word.lowercased()
            guard options.contains(lower) else { return "Illegal option \(word)" }
            if lower == "none" || lower == "all" {
                let shown = lower == "none" ? "None" : "All"
                if !first { return "'Options \(shown)' must be the first \(shown == "None" ? "Option" : "option") given." }
                if merge { return "You may not use 'Options +\(shown)' or 'Options -\(shown)'." }
                allOrNone = true
            }
            first = false
        }
        return nil
    }

    /// Apache's words for `AllowOverride` written so; nil where it takes them. `Options=…` and
    /// `Nonfatal=…` carry lists of their own, not judged here.
    func overridesRefusal(_ words: [String]) -> String? {
        for word in words where !word.contains("=") && !overrides.contains(word.lowercased()) {
            return "Illegal override option \(word)"
        }
        return nil
    }
}
