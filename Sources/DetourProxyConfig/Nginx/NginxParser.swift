import DetourDiagnostics

/// Builds the directive tree from tokens with nginx's structural rules. Iterative, and blocks
/// deeper than `maximumDepth` are read but left out of the tree, so no input can exhaust the
/// stack (freeing a deeply nested tree recurses). On an error it records it and goes on, so
/// one run reports every problem.
struct NginxParser {
    static let maximumDepth = 256

    private struct Frame {
        var header: ConfigDirective?
        var children: [ConfigDirective] = []
        /// Past the depth limit: read, but kept out of the tree.
        var dropped = false
    }

    let path: String

    func parse(_ tokens: [NginxToken], end: (line: Int, column: Int), unterminatedQuote: Bool) -> ([ConfigDirective], [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        var stack = [Frame()]
        var pending: [ConfigDirective.Argument] = []

        func at(_ token: NginxToken) -> SourceLocation { SourceLocation(path: path, line: token.line, column: token.column) }
        func error(_ message: String, _ location: SourceLocation, notes: [Diagnostic.Note] = []) {
            diagnostics.append(.error("nginx.syntax", message, at: location, notes: notes))
        }
        func directive(from words: [ConfigDirective.Argument]) -> ConfigDirective {
            ConfigDirective(name: words[0].value, arguments: Array(words.dropFirst()), at: words[0].location)
        }

        for token in tokens {
            switch token.kind {
            case .word(let value, let quoted):
                pending.append(ConfigDirective.Argument(value, isQuoted: quoted, at: at(token)))
            case .semicolon:
                guard !pending.isEmpty else {
                    error("unexpected \";\"", at(token))
                    continue
                }
                let simple = directive(from: pending)
                if NginxDirectiveKinds.blocks.contains(simple.name) {
                    error("directive \"\(simple.name)\" has no opening \"{\"", simple.location)
                }
                stack[stack.count - 1].children.append(simple)
                pending = []
            case .blockStart:
                if pending.isEmpty {
                    error("unexpected \"{\"", at(token))
                    stack.append(Frame(header: nil, dropped: true))
                    continue
                }
                var header = directive(from: pending)
                if NginxDirectiveKinds.simple.contains(header.name) {
                    error("directive \"\(header.name)\" is not terminated by \";\"", header.location)
                }
                header.block = []
                let tooDeep = stack.count > Self.maximumDepth
                if tooDeep, stack.last?.dropped == false {
                    error("blocks nest more than \(Self.maximumDepth) levels deep; the deeper ones are not checked", header.location)
                }
                stack.append(Frame(header: header, dropped: tooDeep))
                pending = []
            case .blockEnd:
                if !pending.isEmpty {
                    error("unexpected \"}\"", at(token), notes: [.init("directive \"\(pending[0].value)\" is not terminated by \";\"", at: pending[0].location)])
                    pending = []
                }
                guard stack.count > 1 else {
                    error("unexpected \"}\"", at(token))
                    continue
                }
                close(&stack)
            }
        }

        let endLocation = SourceLocation(path: path, line: end.line, column: end.column)
        if unterminatedQuote {
            error("unexpected end of file, expecting \";\" or \"}\"", endLocation, notes: [.init("a quoted string is never closed")])
        } else if !pending.isEmpty {
            error("unexpected end of file, expecting \";\" or \"}\"", endLocation, notes: [.init("directive \"\(pending[0].value)\" starts here", at: pending[0].location)])
        } else if stack.count > 1 {
            let opened = stack.last?.header?.location
            error("unexpected end of file, expecting \"}\"", endLocation, notes: opened.map { [.init("block opened here", at: $0)] } ?? [])
        }
        // Close what is still open so the tree keeps what was read.
        while stack.count > 1 { close(&stack) }
        return (stack[0].children, diagnostics)
    }

    /// Ends the innermost block and files it under its parent, unless it was dropped.
    private func close(_ stack: inout [Frame]) {
        let frame = stack.removeLast()
        guard !frame.dropped, var header = frame.header else { return }
        header.block = frame.children
        stack[stack.count - 1].children.append(header)
    }
}
