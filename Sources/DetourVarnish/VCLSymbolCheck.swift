/// The names varnishd's compiler looks up while it reads a VCL, in the order of the text: a
/// variable the VCL's syntax does not have, a function the language or an imported VMOD does
/// not have. The parser asks after each statement and condition it reads, so a name it does
/// not know and a mistake in the text later on are told apart by place, as varnishd tells them.
struct VCLSymbolCheck {
    let table: VCLTable
    let syntax: String
    /// The VMODs imported so far: a VMOD's function before its `import` is not found.
    var imports: Set<String> = []
    /// The ACLs, backends and probes declared so far: an ACL may be called `client`, like a
    /// variable's scope.
    var declared: Set<String> = []

    /// Names varnishd knows without a declaration: booleans, duration units, `default`.
    private static let plainNames: Set<String> = ["true", "false", "default", "ms", "s", "m", "h", "d", "w", "y"]

    init(table: VCLTable = .shared, syntax: String) {
        self.table = table
        self.syntax = syntax
    }

    /// The first name of an expression varnishd does not know, in its words.
    func unknown(in tokens: [VCLToken]) -> (message: String, token: VCLToken)? {
        for (offset, token) in tokens.enumerated() where token.kind == .name && token.location.path != VCLConfig.builtinPath {
            if offset + 1 < tokens.count && tokens[offset + 1].isSymbol("(") {
                let vmod = token.text.split(separator: ".").first.map(String.init) ?? token.text
                let known = table.functions[token.text] != nil && (!token.text.contains(".") || imports.contains(vmod))
                let objectMethod = token.text.contains(".") && !table.vmods.contains(vmod)
                if !known, !objectMethod, !Self.plainNames.contains(token.text) { return ("Symbol not found: '\(token.text)'", token) }
            } else if let unknown = unknownVariable(token) {
                return unknown
            }
        }
        return nil
    }

    /// A variable no method may unset: varnishd says so as it reads the `unset`.
    func neverUnset(_ token: VCLToken) -> String? {
        guard token.location.path != VCLConfig.builtinPath, let variable = table.variable(token.text, syntax: syntax), variable.unsetable.isEmpty
        else { return nil }
        return "Variable cannot be unset."
    }

    /// A name that starts like a variable (`req.`, `beresp.`) and is none in this syntax.
    func unknownVariable(_ token: VCLToken) -> (message: String, token: VCLToken)? {
        guard token.location.path != VCLConfig.builtinPath, table.looksLikeVariable(token.text), !token.text.hasPrefix("storage."),
            !declared.contains(token.text), table.variable(token.text, syntax: syntax) == nil
        else { return nil }
        return ("Symbol not found: '\(token.text)'" + (table.otherSyntaxNote(token.text).map { " " + $0 } ?? ""), token)
    }
}
