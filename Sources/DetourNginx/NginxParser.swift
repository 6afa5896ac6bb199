import DetourDiagnostics
import DetourProxyCore

/// Reads one file into directives with nginx's structural rules, pulling tokens from the
/// lexer as it goes. Blocks deeper than `maximumDepth` are read but left out, so nothing
/// downstream recurses without bound. On an error it records it and goes on, so one run
/// reports every problem.
enum NginxParser {
    static let maximumDepth = 256
    /// nginx stops at its first error; past this many in one file the rest are not reported,
    /// so a binary or truncated file does not bury the useful ones.
    static let maximumErrors = 100
    /// What nginx says of a `;` that ends no directive.
    static let straySemicolon = "unexpected \";\""

    private struct OpenBlock {
        /// The block's entry; nil when it is not stored.
        var entry: Int?
        var name: NginxDirectiveName?
        var location: SourceLocation?
        /// Too deep, or a `{` with no directive: what is inside is read but not stored.
        var dropsContents = false
    }

    /// `bytes` parsed as file number `fileID` of a configuration, shown as `path`.
    static func parse(_ bytes: [UInt8], fileID: Int32, path: String) -> NginxParsedFile {
        var file = NginxParsedFile(displayPath: path, bytes: bytes)
        bytes.withUnsafeBufferPointer { buffer in
            var lexer = NginxLexer(buffer, path: path)
            parse(&lexer, fileID: fileID, into: &file)
            file.diagnostics = lexer.diagnostics + file.diagnostics
        }
        return file
    }

    private static func parse(_ lexer: inout NginxLexer, fileID: Int32, into file: inout NginxParsedFile) {
        var open: [OpenBlock] = []
        /// Where the words of the directive being read start, when one is being read.
        var pending: Int?
        /// Inside a left-out block: directives are read but not stored.
        var droppedDepth = 0
        file.source.words.reserveCapacity(file.bytes.count / 10)
        file.entries.reserveCapacity(file.bytes.count / 30)

        func at(_ line: Int32, _ column: Int32) -> SourceLocation {
            SourceLocation(path: file.displayPath, line: Int(line), column: Int(column))
        }
        func error(_ message: String, _ location: SourceLocation, notes: [Diagnostic.Note] = []) {
            guard file.diagnostics.count <= maximumErrors else { return }
            if file.diagnostics.count == maximumErrors {
                file.diagnostics.append(
                    .error(NginxRules.syntax.id, "more than \(maximumErrors) syntax errors in this file; the rest are not reported", at: location))
                return
            }
            file.diagnostics.append(.error(NginxRules.syntax.id, message, at: location, notes: notes))
        }
        func nameOfPending(_ first: Int) -> String { file.value(of: file.words[first]) }
        /// A directive ended the wrong way: located, as nginx does, where it ends; the start is
        /// a note when it is on an earlier line.
        func misused(_ first: Int, _ message: String, endsAt end: SourceLocation) {
            let start = file.location(of: file.words[first])
            error(message, end, notes: start.line == end.line ? [] : [.init("directive \"\(nameOfPending(first))\" starts here", at: start)])
        }
        /// Stores the pending directive; returns its entry index, or nil inside a left-out block.
        func store(_ first: Int, isBlock: Bool) -> (index: Int?, name: NginxDirectiveName?) {
            let nameWord = file.words[first]
            let name = NginxDirectiveName(lexer.bytes(of: nameWord))
            guard droppedDepth == 0 else { return (nil, name) }
            let index = file.entries.count
            file.entries.append(
                NginxEntry(
                    file: fileID, firstWord: Int32(first), wordCount: Int32(file.words.count - first),
                    end: Int32(index + 1), name: name, isBlock: isBlock))
            return (index, name)
        }

        while let token = lexer.next() {
            switch token {
            case .word(let word):
                if pending == nil { pending = file.words.count }
                file.source.words.append(word)
            case .semicolon(let line, let column):
                guard let first = pending else {
                    error(Self.straySemicolon, at(line, column))
                    continue
                }
                let (_, name) = store(first, isBlock: false)
                // Inside `map`, `types` and the like each line is an entry: `location 1;` is a key.
                if name?.takesBlock(inside: open.last?.name) == true, open.last?.name?.holdsEntries != true {
                    misused(first, "directive \"\(nameOfPending(first))\" has no opening \"{\"", endsAt: at(line, column))
                }
                pending = nil
            case .blockStart(let line, let column):
                guard let first = pending else {
                    error("unexpected \"{\"", at(line, column))
                    open.append(OpenBlock(entry: nil, location: nil, dropsContents: true))
                    droppedDepth += 1
                    continue
                }
                pending = nil
                let insideEntries = open.last?.name?.holdsEntries == true
                if insideEntries {
                    error("unexpected \"{\"", at(line, column))
                }
                let location = file.location(of: file.words[first])
                let isLua = NginxDirectiveName.isLuaBlock(lexer.bytes(of: file.words[first]))
                let tooDeep = open.count >= maximumDepth
                if tooDeep, droppedDepth == 0 {
                    error("blocks nest more than \(maximumDepth) levels deep; the deeper ones are not checked", location)
                }
                if tooDeep { droppedDepth += 1 }
                let (index, name) = store(first, isBlock: true)
                if let name, !name.takesBlock(inside: open.last?.name), !insideEntries {
                    misused(first, "directive \"\(name.rawValue)\" is not terminated by \";\"", endsAt: at(line, column))
                }
                open.append(OpenBlock(entry: index, name: name, location: location, dropsContents: tooDeep))
                // A Lua body is not nginx syntax: skip it to its closing brace.
                if isLua {
                    guard lexer.skipLua() != nil else { break }
                    close(&open, at: (lexer.line, lexer.column), droppedDepth: &droppedDepth, file: &file)
                }
            case .blockEnd(let line, let column):
                if let first = pending {
                    error(
                        "unexpected \"}\"", at(line, column),
                        notes: [.init("directive \"\(nameOfPending(first))\" is not terminated by \";\"", at: file.location(of: file.words[first]))])
                    pending = nil
                }
                guard !open.isEmpty else {
                    error("unexpected \"}\"", at(line, column))
                    continue
                }
                close(&open, at: (line, column), droppedDepth: &droppedDepth, file: &file)
            }
        }

        let end = at(lexer.line, lexer.column)
        if lexer.unterminatedQuote {
            error("unexpected end of file, expecting \";\" or \"}\"", end, notes: [.init("a quoted string is never closed")])
        } else if let first = pending {
            error(
                "unexpected end of file, expecting \";\" or \"}\"", end,
                notes: [.init("directive \"\(nameOfPending(first))\" starts here", at: file.location(of: file.words[first]))])
        } else if let opened = open.last {
            error("unexpected end of file, expecting \"}\"", end, notes: opened.location.map { [.init("block opened here", at: $0)] } ?? [])
        }
        // Close what is still open so the entries keep what was read.
        while !open.isEmpty { close(&open, at: (lexer.line, lexer.column), droppedDepth: &droppedDepth, file: &file) }
    }

    /// Ends the innermost block: its entry now spans everything read since it opened.
    private static func close(_ open: inout [OpenBlock], at brace: (line: Int32, column: Int32), droppedDepth: inout Int, file: inout NginxParsedFile) {
        let block = open.removeLast()
        if let entry = block.entry {
            file.entries[entry].end = Int32(file.entries.count)
            (file.entries[entry].closeLine, file.entries[entry].closeColumn) = brace
        }
        if block.dropsContents { droppedDepth -= 1 }
    }
}
