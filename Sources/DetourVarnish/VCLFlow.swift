import DetourDiagnostics

/// Follows a method for one status as Varnish runs it: the VCL's definitions in order, then
/// the built-in one; `call` into subroutines (a bare `return;` comes back); both ways of a
/// condition it cannot decide. Each way ends at a `return`, as the built-in VCL makes sure.
struct VCLFlow {
    let program: VCLProgram
    /// `beresp` on the backend side, `resp` in vcl_synth.
    let object: String
    /// Names whose truth the situation fixes.
    var facts: [String: Bool] = [:]
    /// Names whose text the situation fixes (`req.method` for a visitor's request).
    var values: [String: String] = [:]
    /// Names whose number the situation fixes (`bereq.retries` on a fetch's first try).
    var numbers: [String: Int] = [:]

    /// Ways through a method stop being followed past this many: a VCL of many independent
    /// conditions would double them at each.
    static let pathLimit = 256

    private struct Frame {
        var statements: ArraySlice<VCLStatement>
        /// The frame a `call` left: a bare `return;` goes back to it.
        var returnsHere: Bool
    }

    /// `status`: the status the method starts with, nil where it has none yet (vcl_recv).
    func paths(method: String, status: Int?) -> [VCLPath] {
        let body = program.definitions(of: method).flatMap(\.body)
        var found: [VCLPath] = []
        var start = VCLPath(status: status)
        if method == "vcl_backend_response", let status, !Self.cachedByDefault.contains(status) { start.knownTTL = -1 }
        run([Frame(statements: body[...], returnsHere: false)], start, into: &found)
        return found
    }

    private func run(_ frames: [Frame], _ path: VCLPath, into found: inout [VCLPath]) {
        var frames = frames
        var path = path
        while found.count < Self.pathLimit {
            guard var frame = frames.popLast() else {
                found.append(path)
                return
            }
            guard let statement = frame.statements.first else { continue }
            frame.statements = frame.statements.dropFirst()
            frames.append(frame)
            switch statement {
            case .set(let target, let op, let value):
                apply(target.text, op, value, at: target.location, to: &path)
            case .synthetic(let value, let at):
                path.body = body(value, at: at, status: path.status)
            case .call(let target):
                let inner = program.definitions(of: target.text).flatMap(\.body)
                frames.append(Frame(statements: inner[...], returnsHere: true))
            case .returns(let action, let arguments, let at):
                guard let action else {
                    // `return;` ends the called subroutine.
                    while let last = frames.popLast(), !last.returnsHere {}
                    continue
                }
                path.action = action.text
                path.arguments = arguments
                path.returnAt = at
                found.append(path)
                return
            case .block(let inner):
                frames.append(Frame(statements: inner[...], returnsHere: false))
            case .branch(let arms, let otherwise):
                let condition = VCLCondition(
                    statusVariable: object + ".status", status: path.status, facts: facts, values: values, numbers: numbers, ttl: path.knownTTL)
                var taken = false
                for arm in arms {
                    switch condition.evaluate(arm.condition) {
                    case true?:
                        frames.append(Frame(statements: arm.body[...], returnsHere: false))
                        taken = true
                    case false?: continue
                    case nil:
                        var other = path
                        other.dependsOnRequest = true
                        run(frames + [Frame(statements: arm.body[...], returnsHere: false)], other, into: &found)
                        path.dependsOnRequest = true
                        continue
                    }
                    break
                }
                if !taken, let otherwise { frames.append(Frame(statements: otherwise[...], returnsHere: false)) }
            case .unset, .other: break
            }
        }
    }

    /// The statuses whose beresp.ttl Varnish works out from the answer's headers
    /// (`RFC2616_Ttl` in varnishd's cache_rfc2616.c); any other starts at -1.
    static let cachedByDefault: Set<Int> = [200, 203, 204, 300, 301, 302, 304, 307, 404, 410, 414]

    private func apply(_ target: String, _ op: String, _ value: [VCLToken], at: SourceLocation, to path: inout VCLPath) {
        switch target.dropFirst(object.count) {
        case ".status" where target.hasPrefix(object):
            path.status = value.count == 1 && op == "=" ? Int(value[0].text) : nil
            path.statusSetAt = at
        case ".body" where target.hasPrefix(object):
            path.body = body(value, at: at, status: path.status)
        case ".ttl" where target == "beresp.ttl":
            path.ttl = (Self.keeps(value), at)
            path.knownTTL = nil
        case ".uncacheable" where target == "beresp.uncacheable":
            path.uncacheable = value.count == 1 && value[0].isName("true")
        default: break
        }
    }

    /// A body: the argument of `std.fileread` where it reads one, Varnish's page where the
    /// built-in VCL wrote it, else text of the VCL's own.
    private func body(_ value: [VCLToken], at: SourceLocation, status: Int?) -> VCLPath.Body {
        if at.path == VCLConfig.builtinPath { return .builtin }
        guard let call = value.firstIndex(where: { $0.isName("std.fileread") }), call + 1 < value.count, value[call + 1].isSymbol("(") else {
            return .text(at: at)
        }
        var depth = 0
        var argument: [VCLToken] = []
        for token in value[(call + 1)...] {
            if token.isSymbol("(") {
                depth += 1
                if depth == 1 { continue }
            }
            if token.isSymbol(")") {
                depth -= 1
                if depth == 0 { break }
            }
            argument.append(token)
        }
        return .file(path: argument, status: status, at: value[call].location)
    }

    /// Whether a TTL keeps the object: a duration above zero.
    private static func keeps(_ value: [VCLToken]) -> Bool {
        if value.first?.isSymbol("-") == true { return false }
        guard let number = value.first, number.kind == .number, let amount = Double(number.text) else { return true }
        return amount > 0
    }
}
