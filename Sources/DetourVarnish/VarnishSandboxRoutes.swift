import DetourDiagnostics
import DetourProxyCore
import Foundation

/// The paths `detour verify varnish` asks for beside `/`: one for each test of `req.url` in the
/// VCL's own client-side methods (`vcl_recv` routing to another backend, answering with
/// `synth` itself, passing, piping), so each way a visitor's request can go is probed. A `~` test is
/// reached by a string its pattern matches (varnishd's regular expressions are PCRE; what the
/// candidates offer is kept only where Foundation's engine matches it too), an `==` test by its
/// literal.
enum VarnishSandboxRoutes {
    /// Each route, with the status of the `synth` its test answers with, when it does.
    static func routes(_ program: VCLProgram) -> [(route: SandboxPlan.Route, synth: Int?)] {
        var routes: [(route: SandboxPlan.Route, synth: Int?)] = []
        var seen: Set<String> = ["/"]
        forEachClientArm(program) { arm in
            let synth = arm.body.lazy.compactMap(synthStatus).first
            for (pattern, at) in urlTests(arm.condition) {
                guard let path = pattern, seen.insert(path).inserted else { continue }
                routes.append((SandboxPlan.Route(path: path, location: at), synth))
            }
        }
        return routes
    }

    /// The `synth` returns that only a request by a method no probe sends reaches (inside an
    /// `if (req.method == "PURGE")`), each with that method.
    static func methodOnlySynths(_ program: VCLProgram) -> [(at: SourceLocation, method: String)] {
        var found: [(at: SourceLocation, method: String)] = []
        forEachClientArm(program) { arm in
            let tokens = arm.condition
            guard
                let method = tokens.indices.dropLast(2).lazy.compactMap({ index -> String? in
                    guard tokens[index].isName("req.method"), tokens[index + 1].isSymbol("=="), tokens[index + 2].kind == .string else { return nil }
                    return SandboxPlan.probedMethods.contains(tokens[index + 2].text) ? nil : tokens[index + 2].text
                }).first
            else { return }
            arm.body.forEachStatement { inner in
                if case .returns(let action?, _, let at) = inner, action.isName("synth") { found.append((at, method)) }
            }
        }
        return found
    }

    /// Each arm of each `if` in the VCL's own client-side methods, in reading order.
    private static func forEachClientArm(_ program: VCLProgram, _ visit: ((condition: [VCLToken], body: [VCLStatement])) -> Void) {
        for subroutine in program.subroutines where !subroutine.isBuiltin && VarnishSite.clientMethods.contains(subroutine.name.text) {
            subroutine.body.forEachStatement { statement in
                guard case .branch(let arms, _) = statement else { return }
                arms.forEach(visit)
            }
        }
    }

    /// N of `return (synth(N …))`.
    private static func synthStatus(_ statement: VCLStatement) -> Int? {
        guard case .returns(let action?, let arguments, _) = statement, action.isName("synth"), let first = arguments.first, first.count == 1 else {
            return nil
        }
        return Int(first[0].text)
    }

    /// Each `req.url ~ "pattern"` and `req.url == "literal"` of a condition: a path that
    /// passes it (nil when none is found), and where it is written.
    private static func urlTests(_ tokens: [VCLToken]) -> [(String?, SourceLocation)] {
        var found: [(String?, SourceLocation)] = []
        for index in tokens.indices.dropLast(2) where tokens[index].isName("req.url") && tokens[index + 2].kind == .string {
            let value = tokens[index + 2]
            if tokens[index + 1].isSymbol("~") {
                found.append((matching(value.text), value.location))
            } else if tokens[index + 1].isSymbol("==") {
                found.append((RegexSample.isPlainPath(value.text) ? value.text : nil, value.location))
            }
        }
        return found
    }

    /// A plain path the pattern matches.
    private static func matching(_ pattern: String) -> String? {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return nil }
        let candidates = RegexSample.candidates(pattern).lazy.flatMap { sample in [sample, "/" + sample, sample + "a", "/a" + sample] }
        return candidates.first { path in
            RegexSample.isPlainPath(path) && regex.firstMatch(in: path, range: NSRange(path.startIndex..., in: path)) != nil
        }
    }
}
