import DetourDiagnostics

/// The one namespace varnishd's compiler keeps for a VCL's declarations and its own symbols:
/// an ACL, backend, probe, subroutine or imported VMOD may not take a name another one, or the
/// language itself (`ban`, `regsub`, `req`, `sub`, `vcl_recv`), already has. Declarations are
/// met in source order, as the compiler meets them; its words for each clash.
struct VCLNamespace {
    let table: VCLTable
    /// The VCL's syntax, `4.0` or `4.1`: some of the language's names are 4.1's only.
    let syntax: String
    /// The VCL's own names so far, with their kinds (`acl`, `backend`, `probe`, `sub`, `vmod`).
    private var declared: [String: String] = [:]
    /// Where each subroutine of the VCL's own (not a method) is first defined.
    private var subroutines: [String: SourceLocation] = [:]

    init(table: VCLTable = .shared, syntax: String) {
        self.table = table
        self.syntax = syntax
    }

    /// varnishd's refusal of `token` declared as `kind`, or nil once it is taken.
    mutating func declare(_ token: VCLToken, as kind: String) -> Diagnostic? {
        let refuse = { (message: String) in Diagnostic.error(VarnishRules.syntax.id, message, at: token.location) }
        let name = token.text
        let builtin = table.symbols[name].flatMap { $0.syntaxes.contains(syntax) ? $0.kind : nil }
        if kind == "sub" {
            // A method's definitions join; the built-in VCL's own come last.
            guard token.location.path != VCLConfig.builtinPath, table.methods[name] == nil else { return nil }
            if name.hasPrefix("vcl_") {
                return table.builtinSubroutines.contains(name) ? nil : refuse("The names 'vcl_*' are reserved for subroutines.")
            }
            if let first = subroutines[name] {
                return Diagnostic(
                    .error, VarnishRules.syntax.id, "Subroutine '\(name)' redefined", at: token.location,
                    notes: [.init("previously defined here", at: first)])
            }
            if let other = declared[name] ?? builtin, other != "sub" { return refuse("Symbol '\(name)' has wrong type (\(other)), expected sub:") }
            declared[name] = kind
            subroutines[name] = token.location
            return nil
        }
        // `backend default` and `probe default` name the defaults, which `default` is there for.
        if name == "default", kind == "backend" || kind == "probe" { return nil }
        if kind == "vmod" {
            guard table.vmods.contains(name) else { return refuse("Could not find VMOD \(name)") }
            declared[name] = declared[name] ?? kind
            return nil
        }
        if let other = declared[name] {
            return refuse(other == kind ? "\(kind.prefix(1).uppercased() + kind.dropFirst()) '\(name)' redefined." : "Name '\(name)' already defined.")
        }
        if let builtin { return refuse("Name \(name) must have type '\(builtin)'.") }
        if name.hasPrefix("vcl_") { return refuse("Symbols named 'vcl_*' are reserved.") }
        declared[name] = kind
        return nil
    }
}
