import DetourDiagnostics

/// One statement of a VCL subroutine, as much as the checks need: expressions stay tokens,
/// read again by `VCLCondition` and `VCLStringValue` where a check needs their value.
indirect enum VCLStatement: Sendable {
    /// `set target op value;`
    case set(target: VCLToken, operator: String, value: [VCLToken])
    case unset(target: VCLToken)
    case call(VCLToken)
    /// `return (action)` or `return (action(arguments))`; a bare `return;` has no action.
    case returns(action: VCLToken?, arguments: [[VCLToken]], at: SourceLocation)
    /// `if`, its `elseif`/`elsif`/`elif`/`else if` arms, and `else`.
    case branch(arms: [(condition: [VCLToken], body: [VCLStatement])], otherwise: [VCLStatement]?)
    case block([VCLStatement])
    /// `synthetic(value);`
    case synthetic(value: [VCLToken], at: SourceLocation)
    /// A function or VMOD method called for its effect, `hash_data`, `ban`, `new`, inline C:
    /// their tokens, for the names they read.
    case other([VCLToken])
}

/// `sub name { … }`: one definition. Varnish joins the definitions of a method in order.
struct VCLSubroutine: Sendable {
    var name: VCLToken
    var body: [VCLStatement]
    /// Part of the VCL varnishd appends (`VCLTable.builtin`).
    var isBuiltin: Bool
}

/// A VCL file and its includes as read: the declarations the checks need.
struct VCLProgram: Sendable {
    /// The `vcl` of `vcl 4.1;`.
    var version: VCLToken?
    /// Its number, the syntax the VCL is written in: `4.0` or `4.1`.
    var syntax = "4.1"
    var imports: [VCLToken] = []
    var backends: [VCLToken] = []
    var probes: [VCLToken] = []
    var acls: [VCLToken] = []
    var subroutines: [VCLSubroutine] = []
    /// Names a backend's fields use (`.probe = name;`).
    var fieldNames: [VCLToken] = []

    /// Every definition of `name`, the VCL's own first, the built-in one last.
    func definitions(of name: String) -> [VCLSubroutine] {
        subroutines.filter { $0.name.text == name }
    }
}

extension Array where Element == VCLStatement {
    /// Every statement in reading order, an `if` or a block before the statements inside it.
    func forEachStatement(_ visit: (VCLStatement) -> Void) {
        for statement in self {
            visit(statement)
            switch statement {
            case .branch(let arms, let otherwise):
                arms.forEach { $0.body.forEachStatement(visit) }
                otherwise?.forEachStatement(visit)
            case .block(let inner): inner.forEachStatement(visit)
            default: break
            }
        }
    }
}
