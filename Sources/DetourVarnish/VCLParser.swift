import DetourDiagnostics

/// Reads VCL tokens (includes already in place) into a `VCLProgram` as varnishd's compiler
/// does, stopping at the first thing it would refuse, in its words.
struct VCLParser {
    private let tokens: [VCLToken]
    private var index = 0
    /// Where the text ends, for "unexpected end" findings.
    private let end: SourceLocation
    /// The names looked up while reading, from `vcl 4.x;` on.
    private var symbols = VCLSymbolCheck(syntax: "4.1")

    struct Failure: Error {
        var diagnostic: Diagnostic
    }

    private init(tokens: [VCLToken], end: SourceLocation) {
        self.tokens = tokens
        self.end = end
    }

    static func parse(_ tokens: [VCLToken], end: SourceLocation) -> Result<VCLProgram, Diagnostic> {
        var parser = VCLParser(tokens: tokens, end: end)
        do {
            return .success(try parser.program())
        } catch {
            return .failure(error.diagnostic)
        }
    }

    private var current: VCLToken? { index < tokens.count ? tokens[index] : nil }
    private var here: SourceLocation { current?.location ?? end }

    private func fail(_ message: String, at location: SourceLocation? = nil) -> Failure {
        Failure(diagnostic: .error(VarnishRules.syntax.id, message, at: location ?? here))
    }

    private mutating func next() -> VCLToken? {
        defer { index += 1 }
        return current
    }

    private mutating func expect(_ symbol: String) throws(Failure) {
        guard let token = current, token.isSymbol(symbol) else {
            throw fail("Expected '\(symbol)' got \(current?.quoted ?? "end of input")")
        }
        index += 1
    }

    private mutating func name() throws(Failure) -> VCLToken {
        guard let token = current, token.kind == .name else { throw fail("Expected an identifier got \(current?.quoted ?? "end of input")") }
        index += 1
        return token
    }

    /// A declaration's name, refused where the namespace already has it.
    private func declared(_ name: VCLToken, as kind: String, in namespace: inout VCLNamespace) throws(Failure) -> VCLToken {
        if let refusal = namespace.declare(name, as: kind) { throw Failure(diagnostic: refusal) }
        return name
    }

    private mutating func program() throws(Failure) -> VCLProgram {
        var program = VCLProgram()
        guard let first = current, first.isName("vcl") else { throw fail("VCL version declaration missing", at: current?.location ?? end) }
        index += 1
        guard let version = current, version.kind == .number, version.text == "4.0" || version.text == "4.1" else {
            throw fail("VCL version declaration must be 4.0 or 4.1 got \(current?.quoted ?? "end of input")")
        }
        index += 1
        program.version = first
        program.syntax = version.text
        try expect(";")
        var namespace = VCLNamespace(syntax: program.syntax)
        symbols = VCLSymbolCheck(syntax: program.syntax)
        while let token = current {
            switch (token.kind, token.text) {
            case (.name, "import"):
                index += 1
                program.imports.append(try declared(try name(), as: "vmod", in: &namespace))
                symbols.imports.insert(program.imports[program.imports.count - 1].text)
                if current?.isName("from") == true {
                    index += 1
                    guard current?.kind == .string else { throw fail("Expected a string got \(current?.quoted ?? "end of input")") }
                    index += 1
                }
                try expect(";")
            case (.name, "backend"):
                index += 1
                let backend = try declared(try name(), as: "backend", in: &namespace)
                symbols.declared.insert(backend.text)
                program.backends.append(backend)
                if current?.isName("none") == true {
                    index += 1
                    try expect(";")
                } else {
                    program.fieldNames += try fields()
                }
            case (.name, "probe"):
                index += 1
                program.probes.append(try declared(try name(), as: "probe", in: &namespace))
                symbols.declared.insert(program.probes[program.probes.count - 1].text)
                program.fieldNames += try fields()
            case (.name, "acl"):
                index += 1
                program.acls.append(try declared(try name(), as: "acl", in: &namespace))
                symbols.declared.insert(program.acls[program.acls.count - 1].text)
                // Its flags (`+log`, `-pedantic`) up to the list.
                while let flag = current, !flag.isSymbol("{"), flag.kind == .symbol || flag.kind == .name { index += 1 }
                _ = try entries()
            case (.name, "sub"):
                index += 1
                let subName = try declared(try name(), as: "sub", in: &namespace)
                let body = try compound()
                program.subroutines.append(
                    VCLSubroutine(name: subName, body: body, isBuiltin: subName.location.path == VCLConfig.builtinPath))
            case (.name, "vcl") where token.location.path == VCLConfig.builtinPath:
                // The built-in VCL's own `vcl 4.0;`, where varnishd appends it.
                index += 3
            case (.name, "vcl") where program.version != nil:
                throw fail("Multiple 'vcl' directives")
            case (.inlineC, _):
                index += 1
            default:
                throw fail("Expected one of 'acl', 'sub', 'backend', 'probe', 'import',  or 'vcl'; found \(token.quoted)")
            }
        }
        return program
    }

    /// A backend's or probe's `{ .name = value; … }`, an inline probe `{ … }` as a value; the
    /// names its values use (`.probe = name;`).
    private mutating func fields() throws(Failure) -> [VCLToken] {
        try expect("{")
        var names: [VCLToken] = []
        while true {
            guard let token = current else { throw fail("Expected '.' got end of input") }
            if token.isSymbol("}") {
                index += 1
                return names
            }
            guard token.isSymbol(".") else { throw fail("Expected '.' got \(token.quoted)") }
            index += 1
            _ = try name()
            try expect("=")
            if current?.isSymbol("{") == true {
                names += try fields()
                continue
            }
            while let value = current, value.kind != .symbol || value.isSymbol("-") {
                if value.kind == .name { names.append(value) }
                index += 1
            }
            try expect(";")
        }
    }

    /// An ACL's `{ … }` of addresses: skipped with its braces balanced.
    private mutating func entries() throws(Failure) -> [VCLToken] {
        try expect("{")
        var depth = 1
        var names: [VCLToken] = []
        while depth > 0 {
            guard let token = next() else { throw fail("Unexpected end of input: '}' missing") }
            if token.isSymbol("{") { depth += 1 }
            if token.isSymbol("}") { depth -= 1 }
            if token.kind == .name { names.append(token) }
        }
        return names
    }

    private mutating func compound() throws(Failure) -> [VCLStatement] {
        try expect("{")
        var body: [VCLStatement] = []
        while true {
            guard let token = current else { throw fail("Unexpected end of input: '}' missing") }
            if token.isSymbol("}") {
                index += 1
                return body
            }
            body.append(try statement())
        }
    }

    private mutating func statement() throws(Failure) -> VCLStatement {
        guard let token = current else { throw fail("Unexpected end of input") }
        if token.isSymbol("{") { return .block(try compound()) }
        if token.kind == .inlineC {
            index += 1
            return .other([token])
        }
        guard token.kind == .name else { throw fail("Expected an action, 'if', '{' or '}'") }
        index += 1
        switch token.text {
        case "if": return try branch()
        case "set":
            let target = try name()
            try known(variable: target)
            guard let op = current, op.kind == .symbol, ["=", "+=", "-=", "*=", "/="].contains(op.text) else {
                throw fail("Expected '=' got \(current?.quoted ?? "end of input")")
            }
            index += 1
            let value = try known(try expression())
            if symbols.table.variable(target.text, syntax: symbols.syntax)?.type == "BODY" { try concatenates(value) }
            try expect(";")
            return .set(target: target, operator: op.text, value: value)
        case "unset":
            let target = try name()
            try known(variable: target)
            if let refusal = symbols.neverUnset(target) { throw fail(refusal, at: target.location) }
            try expect(";")
            return .unset(target: target)
        case "call":
            let target = try name()
            try expect(";")
            return .call(target)
        case "return":
            if current?.isSymbol(";") == true {
                index += 1
                return .returns(action: nil, arguments: [], at: token.location)
            }
            try expect("(")
            guard let action = current, action.kind == .name else { throw fail("Expected return action name.") }
            index += 1
            var arguments: [[VCLToken]] = []
            if current?.isSymbol("(") == true {
                index += 1
                while true {
                    arguments.append(try known(try expression()))
                    guard current?.isSymbol(",") == true else { break }
                    index += 1
                }
                try expect(")")
            }
            try expect(")")
            try expect(";")
            return .returns(action: action, arguments: arguments, at: token.location)
        case "synthetic":
            try expect("(")
            let value = try known(try expression())
            try expect(")")
            try expect(";")
            return .synthetic(value: value, at: token.location)
        case "new":
            // `new name = vmod.object(…);`
            let start = index - 1
            _ = try name()
            try expect("=")
            _ = try known(try expression())
            try expect(";")
            return .other(Array(tokens[start..<index]))
        default:
            // A function called for its effect (hash_data, ban, std.log): its arguments, then ';'.
            let start = index - 1
            guard current?.isSymbol("(") == true else { throw fail("Expected '(' got \(current?.quoted ?? "end of input")") }
            try arguments()
            let call = try known(Array(tokens[start..<index]))
            try expect(";")
            return .other(call)
        }
    }

    private mutating func branch() throws(Failure) -> VCLStatement {
        var arms: [(condition: [VCLToken], body: [VCLStatement])] = []
        arms.append((try condition(), try compound()))
        while let token = current, token.kind == .name {
            if token.text == "elseif" || token.text == "elsif" || token.text == "elif"
                || (token.text == "else" && index + 1 < tokens.count && tokens[index + 1].isName("if"))
            {
                index += token.text == "else" ? 2 : 1
                arms.append((try condition(), try compound()))
            } else if token.text == "else" {
                index += 1
                return .branch(arms: arms, otherwise: try compound())
            } else {
                break
            }
        }
        return .branch(arms: arms, otherwise: nil)
    }

    /// Tokens whose names varnishd knows, as it looks them up while it reads.
    private func known(_ tokens: [VCLToken]) throws(Failure) -> [VCLToken] {
        if let unknown = symbols.unknown(in: tokens) { throw fail(unknown.message, at: unknown.token.location) }
        return tokens
    }

    private func known(variable target: VCLToken) throws(Failure) {
        if let unknown = symbols.unknownVariable(target) { throw fail(unknown.message, at: unknown.token.location) }
    }

    /// A `+` varnishd refuses between a number and a string where the value is not text.
    private func concatenates(_ tokens: [VCLToken]) throws(Failure) {
        guard tokens.first?.location.path != VCLConfig.builtinPath,
            let refusal = VCLConcatenation(table: symbols.table, syntax: symbols.syntax).refusal(in: tokens)
        else { return }
        throw fail(refusal.message, at: refusal.at.location)
    }

    private mutating func condition() throws(Failure) -> [VCLToken] {
        try expect("(")
        let condition = try known(try expression())
        try concatenates(condition)
        try expect(")")
        return condition
    }

    /// The binary operators of VCL expressions.
    private static let binary: Set<String> = ["+", "-", "*", "/", "==", "!=", "<", ">", "<=", ">=", "~", "!~", "&&", "||"]

    /// One expression, read as far as varnishd reads it: operands (a string, a number with its
    /// unit, a name with its call's arguments, a parenthesised expression, each after any `!`
    /// or `-`) joined by binary operators. Where it ends, the caller expects what follows.
    private mutating func expression() throws(Failure) -> [VCLToken] {
        let start = index
        try operand()
        while let token = current, token.kind == .symbol, Self.binary.contains(token.text) {
            index += 1
            try operand()
        }
        return Array(tokens[start..<index])
    }

    private mutating func operand() throws(Failure) {
        while let token = current, token.isSymbol("!") || token.isSymbol("-") { index += 1 }
        guard let token = current else { throw fail("Expected an expression got end of input") }
        switch token.kind {
        case .string:
            index += 1
        case .number:
            index += 1
            // A duration's or a size's unit: varnishd takes the name after a number as its
            // unit wherever it is written (`120s`, `120 s`).
            if let unit = current, unit.kind == .name {
                index += 1
            }
        case .name:
            index += 1
            if current?.isSymbol("(") == true { try arguments() }
        case .symbol where token.text == "(":
            index += 1
            _ = try expression()
            try expect(")")
        default:
            throw fail("Expected an expression got \(token.quoted)")
        }
    }

    /// A call's `( … )`: expressions, each perhaps named (`name = value`), between commas.
    private mutating func arguments() throws(Failure) {
        try expect("(")
        if current?.isSymbol(")") == true {
            index += 1
            return
        }
        while true {
            if current?.kind == .name, index + 1 < tokens.count, tokens[index + 1].isSymbol("=") { index += 2 }
            _ = try expression()
            if current?.isSymbol(",") == true {
                index += 1
                continue
            }
            try expect(")")
            return
        }
    }
}
