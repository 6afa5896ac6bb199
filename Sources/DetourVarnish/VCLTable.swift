import Foundation

/// What varnishd 7.1's compiler accepts, probed from it by `scripts/varnish-vcl/probe.py`
/// (`VCL/varnish-vcl.tsv`, built into the binary with `VCL/builtin.vcl` by the
/// EmbedVarnishVCL plugin): the methods and their legal returns, the variables and where each
/// may be read, set and unset, the functions of the language and of the shipped VMODs.
struct VCLTable: Sendable {
    struct Variable: Sendable {
        var type: String
        var readable: Set<String>
        var writable: Set<String>
        var unsetable: Set<String>
    }

    static let shared = VCLTable(text(of: "varnish-vcl.tsv"))
    /// The VCL varnishd appends to every VCL.
    static let builtin = text(of: "builtin.vcl")

    /// Method name → its legal return actions.
    private(set) var methods: [String: Set<String>] = [:]
    /// Every return action some method takes: anything else is no action at all.
    private(set) var actions: Set<String> = []
    /// The built-in VCL's subroutines (its helpers are names a VCL may call and may not define).
    private(set) var builtinSubroutines: Set<String> = []
    private var variables: [String: Variable] = [:]
    /// The variables only one VCL syntax has (`beresp.storage_hint` only 4.0, `local.socket`
    /// only 4.1), by name and syntax.
    private var syntaxVariables: [String: [String: Variable]] = [:]
    /// The names without a dot of varnishd's symbol table (`ban`, `regsub`, `req`, `sub`,
    /// `vcl_recv`), each with its kind and the syntaxes that have it.
    private(set) var symbols: [String: (kind: String, syntaxes: Set<String>)] = [:]
    /// `req.http.` and the other header families, each with its access.
    private var headerFamilies: [(prefix: String, variable: Variable)] = []
    /// Functions and actions by name (`std.fileread`, `regsub`, `hash_data`) with their types.
    private(set) var functions: [String: String] = [:]
    private(set) var vmods: Set<String> = []

    init(_ text: String) {
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            let list = { (index: Int) -> Set<String> in
                guard index < fields.count, fields[index] != "-" else { return [] }
                return Set(fields[index].split(separator: ",").map { "vcl_" + $0 })
            }
            switch fields[0] {
            case "method":
                methods[fields[1]] = Set(fields[2].split(separator: ",").map(String.init))
                actions.formUnion(methods[fields[1]]!)
            case "builtin": builtinSubroutines = Set(fields[1].split(separator: ",").map(String.init))
            case "variable":
                let variable = Variable(type: fields[2], readable: list(3), writable: list(4), unsetable: list(5))
                if fields[1].hasSuffix("*") {
                    headerFamilies.append((String(fields[1].dropLast()) + ".", variable))
                } else if fields.count > 6 {
                    syntaxVariables[fields[1], default: [:]][fields[6]] = variable
                } else {
                    variables[fields[1]] = variable
                }
            case "symbol" where fields.count > 3:
                symbols[fields[1]] = (fields[2], Set(fields[3].split(separator: ",").map(String.init)))
            case "function", "action", "object": functions[fields[1]] = fields[2]
            case "vmod": vmods = Set(fields[1].split(separator: ",").map(String.init))
            default: break
            }
        }
    }

    /// The variable a name is in a VCL of `syntax` (4.0 or 4.1), a header
    /// (`beresp.http.Retry-After`) by its family.
    func variable(_ name: String, syntax: String) -> Variable? {
        if let variable = variables[name] ?? syntaxVariables[name]?[syntax] { return variable }
        return headerFamilies.first { name.hasPrefix($0.prefix) && name.count > $0.prefix.count }?.variable
    }

    /// varnishd's words for a variable another VCL syntax has: `Symbol not found: '…'` and this.
    func otherSyntaxNote(_ name: String) -> String? {
        guard let syntaxes = syntaxVariables[name]?.keys, let other = syntaxes.first else { return nil }
        return other == "4.0" ? "(Only available when VCL syntax <= 4.0)" : "(Only available when \(other) <= VCL syntax)"
    }

    /// Every variable, a header family by its prefix (`req.http.`).
    var allVariables: [(name: String, variable: Variable)] {
        variables.map { ($0.key, $0.value) } + syntaxVariables.flatMap { name, bySyntax in bySyntax.values.map { (name, $0) } }
            + headerFamilies.map { ($0.prefix, $0.variable) }
    }

    /// Whether a name starts like a variable (`req.`, `beresp.`, `now`), so an unknown one is
    /// a mistake and not, say, a VMOD object's method.
    func looksLikeVariable(_ name: String) -> Bool {
        let scope = name.split(separator: ".", maxSplits: 1).first.map(String.init) ?? name
        return Self.scopes.contains(scope)
    }

    private static let scopes: Set<String> = [
        "req", "bereq", "beresp", "resp", "obj", "client", "server", "local", "remote", "sess", "req_top", "now", "storage",
    ]

    private static func text(of file: String) -> String {
        guard let entry = VarnishVCLFiles.files.first(where: { $0.path == file }), let bytes = Data(base64Encoded: entry.base64) else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }
}
