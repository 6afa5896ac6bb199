import DetourTestSupport

@testable import DetourVarnish

/// Writes VCL nobody wrote by hand for the differential test: methods and helper subroutines
/// with statements drawn from what the probed table says each method may read, set, unset and
/// return, and at most one planted fault of a kind varnishd refuses. Seeded, so a disagreement
/// is the same VCL on every run.
struct VCLGenerator {
    enum Fault: CaseIterable {
        case unreadableVariable, unwritableVariable, ununsetableVariable, illegalReturn, undefinedCall, unusedSubroutine
        case missingSemicolon, missingBrace, unterminatedString, missingVersion, unknownVMOD, unknownVariable, functionWithoutImport
        case reservedName, duplicateSubroutine, nameOfTheLanguage, nameTwice, undefinedBackend, undefinedACL
    }

    private var random: SplitMix64
    private let table = VCLTable.shared
    private let methods: [String]
    /// A value of each type a statement can set.
    private static let values = ["STRING": "\"x\"", "HEADER": "\"x\"", "DURATION": "10s", "INT": "1", "BOOL": "true", "REAL": "1.5"]

    init(seed: UInt64) {
        random = SplitMix64(state: seed)
        methods = table.methods.keys.sorted()
    }

    private mutating func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
    private mutating func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }

    /// Variables with their names as a VCL writes them (a header family as one header).
    private var variables: [(name: String, variable: VCLTable.Variable)] {
        table.allVariables.map { ($0.name.hasSuffix(".") ? $0.name + "X-Test" : $0.name, $0.variable) }.sorted { $0.name < $1.name }
    }

    /// One VCL and the fault planted in it, if any.
    mutating func next() -> (text: String, fault: Fault?) {
        let fault: Fault? = chance(45) ? pick(Fault.allCases) : nil
        var subs: [(name: String, body: [String])] = []
        var helpers: [(name: String, body: [String])] = []
        for method in Array(Set((0..<Int(1 + random.next() % 3)).map { _ in pick(methods) })).sorted() {
            var body = (0..<Int(random.next() % 4)).compactMap { _ in statement(in: method) }
            if chance(40) {
                let helper = "helper_\(helpers.count)"
                helpers.append((helper, (0..<Int(1 + random.next() % 2)).compactMap { _ in statement(in: method) }))
                body.append("call \(helper);")
            }
            if chance(50), let legal = table.methods[method]?.filter({ $0 != "vcl" }).sorted(), !legal.isEmpty {
                body.append("return (\(returnAction(pick(legal))));")
            }
            subs.append((method, body))
        }
        // Now and then 4.0's syntax, which has variables 4.1 does not, and lacks some of its.
        var head = [chance(15) ? "vcl 4.0;" : "vcl 4.1;", "import std;", "backend default {", "    .host = \"127.0.0.1\";", "    .port = \"8000\";", "}"]
        switch fault {
        case .unreadableVariable?, .unwritableVariable?, .ununsetableVariable?, .illegalReturn?:
            let method = pick(methods)
            if let line = faultyStatement(fault!, in: method) { subs.append((method, [line])) }
        case .undefinedCall?: subs.append((pick(methods), ["call nowhere;"]))
        // Names varnishd looks up once it has read the text, beside an undefined call's.
        case .undefinedBackend?:
            subs.append(
                chance(50)
                    ? ("vcl_recv", ["set req.backend_hint = \(pick(["nowhere", "Later", "app_1"]));"])
                    : ("vcl_backend_fetch", ["if (bereq.backend == \(pick(["nowhere", "zeta"]))) { std.log(\"x\"); }"]))
        case .undefinedACL?: subs.append(("vcl_recv", ["if (client.ip \(pick(["~", "!~"])) \(pick(["nowhere", "Office"]))) { std.log(\"x\"); }"]))
        case .unusedSubroutine?: helpers.append(("never_called", ["std.log(\"x\");"]))
        case .reservedName?: subs.append(("vcl_frobnicate", []))
        case .duplicateSubroutine?:
            if let first = helpers.first {
                helpers.append(first)
            } else {
                subs.append(("helper_twice", []))
                subs.append(("helper_twice", []))
            }
        case .unknownVMOD?: head.insert("import frobnicate;", at: 2)
        case .functionWithoutImport?:
            head.remove(at: 1)
            subs.append(("vcl_recv", ["std.log(\"x\");"]))
        case .missingVersion?: head.removeFirst()
        case .unknownVariable?: subs.append(("vcl_recv", ["set req.frobnicate = \"x\";"]))
        case .nameOfTheLanguage?: head.append("acl \(pick(["ban", "regsub", "req", "hash_data", "client", "purge"])) { \"127.0.0.1\"; }")
        case .nameTwice?: head += ["acl twice { \"127.0.0.1\"; }", "backend twice { .host = \"127.0.0.1\"; }"]
        default: break
        }
        var lines = head + [""]
        for sub in helpers + subs {
            lines.append("sub \(sub.name) {")
            lines += sub.body.map { "    " + $0 }
            lines.append("}")
            lines.append("")
        }
        switch fault {
        case .missingSemicolon?:
            if let index = lines.indices.filter({ lines[$0].hasSuffix(";") && lines[$0].hasPrefix("    ") }).randomElement(using: &random) {
                lines[index].removeLast()
            } else {
                lines[0].removeLast()
            }
        case .missingBrace?:
            if let index = lines.indices.filter({ lines[$0] == "}" }).randomElement(using: &random) { lines.remove(at: index) }
        case .unterminatedString?: lines.append("sub vcl_deliver {\n    set resp.http.X-Open = \"unclosed;\n}")
        default: break
        }
        return (lines.joined(separator: "\n") + "\n", fault)
    }

    private mutating func returnAction(_ action: String) -> String {
        switch action {
        case "synth": return "synth(\(pick([400, 403, 503])), \"Generated\")"
        case "error": return "error(\(pick([500, 503])))"
        default: return action
        }
    }

    /// A statement `method` accepts: a variable read, set or unset where it may be, or a condition.
    private mutating func statement(in method: String) -> String? {
        let readable = variables.filter { $0.variable.readable.contains(method) && Self.values[$0.variable.type] != nil }
        let writable = variables.filter { $0.variable.writable.contains(method) && Self.values[$0.variable.type] != nil }
        let unsetable = variables.filter { $0.variable.unsetable.contains(method) }
        switch random.next() % 5 {
        case 0 where !readable.isEmpty: return "std.log(\"read \" + \(pick(readable).name));"
        case 1 where !writable.isEmpty:
            let target = pick(writable)
            // A duration's unit apart from its number (`120 s`), as varnishd also reads it.
            let value = target.variable.type == "DURATION" && chance(50) ? "120 s" : Self.values[target.variable.type]!
            return "set \(target.name) = \(value);"
        case 2 where !unsetable.isEmpty: return "unset \(pick(unsetable).name);"
        case 3:
            let strings = readable.filter { $0.variable.type == "STRING" || $0.variable.type == "HEADER" }
            guard !strings.isEmpty else { return nil }
            // varnishd takes four spellings of a further arm (vcc_IfStmt()).
            let arm = chance(50) ? " \(pick(["elif", "elsif", "elseif", "else if"])) (\(pick(strings).name) ~ \"^/y\") { std.log(\"other\"); }" : ""
            return "if (\(pick(strings).name) ~ \"^/x\") { std.log(\"matched\"); }" + arm
        case 4:
            return sum(readable, in: method)
        default: return nil
        }
    }

    /// A number, duration, time or boolean added to a string: refused where the value is not
    /// read as text (a body, a comparison), taken where it is (a header) or the string comes first.
    private mutating func sum(_ readable: [(name: String, variable: VCLTable.Variable)], in method: String) -> String? {
        let typed = readable.filter { ["INT", "DURATION", "REAL", "BOOL", "TIME"].contains($0.variable.type) }
        guard !typed.isEmpty else { return nil }
        let operand = pick(typed).name
        let sum = chance(25) ? "\"at \" + \(operand)" : "\(operand) + \" seen\""
        let bodies = variables.filter { $0.variable.type == "BODY" && $0.variable.writable.contains(method) }
        let headers = variables.filter { $0.variable.type == "HEADER" && $0.variable.writable.contains(method) }
        switch random.next() % 3 {
        case 0 where !bodies.isEmpty: return "set \(pick(bodies).name) = \(sum);"
        case 1 where !headers.isEmpty: return "set \(pick(headers).name) = \(sum);"
        default: return "if (\(sum) == \"x\") { std.log(\"equal\"); }"
        }
    }

    private mutating func faultyStatement(_ fault: Fault, in method: String) -> String? {
        switch fault {
        case .unreadableVariable:
            let out = variables.filter { !$0.variable.readable.contains(method) && $0.variable.type != "BODY" && Self.values[$0.variable.type] != nil }
            return out.isEmpty ? nil : "std.log(\"read \" + \(pick(out).name));"
        case .unwritableVariable:
            let out = variables.filter { !$0.variable.writable.contains(method) && Self.values[$0.variable.type] != nil }
            guard !out.isEmpty else { return nil }
            let target = pick(out)
            return "set \(target.name) = \(Self.values[target.variable.type]!);"
        case .ununsetableVariable:
            let out = variables.filter { !$0.variable.unsetable.contains(method) }
            return out.isEmpty ? nil : "unset \(pick(out).name);"
        case .illegalReturn:
            let out = table.actions.subtracting(table.methods[method] ?? []).subtracting(["vcl"]).sorted()
            return out.isEmpty ? nil : "return (\(returnAction(pick(out))));"
        default: return nil
        }
    }
}
