/// Which subroutines call which, and so which methods reach each subroutine: varnishd checks a
/// subroutine's variables and returns for every method that calls it, directly or not.
struct VCLReach {
    /// Every `call`, in reading order, with the subroutine it stands in.
    private(set) var calls: [(caller: String, target: VCLToken)] = []
    /// Every name read outside a `call` (backends, ACLs, objects are used this way).
    private(set) var namesUsed: [VCLToken] = []
    /// Subroutines by name, the VCL's own and the built-in ones.
    private(set) var defined: [String: [VCLSubroutine]] = [:]
    private var methodsByName: [String: Set<String>] = [:]

    init(_ program: VCLProgram) {
        for subroutine in program.subroutines {
            defined[subroutine.name.text, default: []].append(subroutine)
            collect(subroutine.body, caller: subroutine.name.text, builtin: subroutine.isBuiltin)
        }
        let table = VCLTable.shared
        // From each method, every subroutine it calls, through any depth (calls cannot loop).
        for method in table.methods.keys {
            var stack = [method]
            var seen: Set<String> = [method]
            while let name = stack.popLast() {
                methodsByName[name, default: []].insert(method)
                for call in calls where call.caller == name && seen.insert(call.target.text).inserted {
                    stack.append(call.target.text)
                }
            }
        }
    }

    func methods(reaching subroutine: String) -> Set<String> { methodsByName[subroutine] ?? [] }

    private mutating func collect(_ body: [VCLStatement], caller: String, builtin: Bool) {
        for statement in body {
            switch statement {
            case .call(let target): calls.append((caller, target))
            case .set(_, _, let value): if !builtin { namesUsed += value.filter { $0.kind == .name } }
            case .returns(_, let arguments, _): if !builtin { namesUsed += arguments.joined().filter { $0.kind == .name } }
            case .branch(let arms, let otherwise):
                for arm in arms {
                    if !builtin { namesUsed += arm.condition.filter { $0.kind == .name } }
                    collect(arm.body, caller: caller, builtin: builtin)
                }
                collect(otherwise ?? [], caller: caller, builtin: builtin)
            case .block(let inner): collect(inner, caller: caller, builtin: builtin)
            case .synthetic(let value, _): if !builtin { namesUsed += value.filter { $0.kind == .name } }
            case .other(let tokens): if !builtin { namesUsed += tokens.filter { $0.kind == .name } }
            case .unset: break
            }
        }
    }
}
