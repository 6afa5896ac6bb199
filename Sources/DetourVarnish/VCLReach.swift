/// Which subroutines call which, and the names the VCL's statements read: varnishd refuses a
/// call to no subroutine and a declaration nothing uses.
struct VCLReach {
    /// Every `call`, in reading order, with the subroutine it stands in.
    private(set) var calls: [(caller: String, target: VCLToken)] = []
    /// Every name read outside a `call` (backends, ACLs, objects are used this way).
    private(set) var namesUsed: [VCLToken] = []
    /// Subroutines by name, the VCL's own and the built-in ones.
    private(set) var defined: [String: [VCLSubroutine]] = [:]

    init(_ program: VCLProgram) {
        var calls: [(caller: String, target: VCLToken)] = []
        var namesUsed: [VCLToken] = []
        for subroutine in program.subroutines {
            defined[subroutine.name.text, default: []].append(subroutine)
            subroutine.body.forEachStatement { statement in
                if case .call(let target) = statement { calls.append((subroutine.name.text, target)) }
                // The built-in VCL uses none of the VCL's names.
                guard !subroutine.isBuiltin else { return }
                switch statement {
                case .set(_, _, let tokens), .synthetic(let tokens, _), .other(let tokens): namesUsed += tokens.filter { $0.kind == .name }
                case .returns(_, let arguments, _): namesUsed += arguments.joined().filter { $0.kind == .name }
                case .branch(let arms, _): namesUsed += arms.flatMap(\.condition).filter { $0.kind == .name }
                case .call, .unset, .block: break
                }
            }
        }
        (self.calls, self.namesUsed) = (calls, namesUsed)
    }
}
