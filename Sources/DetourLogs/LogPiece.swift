/// A log line, or a pattern written from one, cut into literal text and the parts that change
/// from one occurrence of the same problem to the next: numbers (pids, ports, errno values,
/// counts), addresses (IPv4, `[IPv6]`, with a port) and paths (`/run/php/php8.2-fpm.sock`); in a
/// pattern, also `…`, any text (the reason OpenSSL gives, the error Go wraps).
enum LogPiece: Sendable, Equatable {
    case literal([UInt8])
    case hole(Hole)

    enum Hole: Sendable, Equatable {
        case number, address, path, text

        /// How a shape of unexplained lines shows it.
        var placeholder: String {
            switch self {
            case .number: "N"
            case .address: "ADDRESS"
            case .path: "PATH"
            case .text: "…"
            }
        }

        /// Whether `byte` can be part of what the hole stands for.
        func admits(_ byte: UInt8) -> Bool {
            switch self {
            case .number: return LogPiece.isDigit(byte) || byte == UInt8(ascii: ".")
            case .address:
                return LogPiece.isAlphanumeric(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "[")
                    || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            case .path: return !LogPiece.endsPath(byte)
            case .text: return true
            }
        }
    }

    /// Cuts `bytes` into pieces: a word holding a `/` that starts with `/` is a path, an IPv4
    /// or bracketed IPv6 address (with a port) is an address, a run of digits not glued to a
    /// letter is a number; everything else is literal, neighbouring literals joined.
    static func cut(_ bytes: some Collection<UInt8>) -> [LogPiece] {
        let text = Array(bytes)
        var pieces: [LogPiece] = []
        var literal: [UInt8] = []
        text.withUnsafeBufferPointer { text in
            scan(
                text, literal: { literal += text[$0] },
                hole: { kind in
                    if !literal.isEmpty {
                        pieces.append(.literal(literal))
                        literal = []
                    }
                    pieces.append(.hole(kind))
                })
        }
        if !literal.isEmpty { pieces.append(.literal(literal)) }
        return pieces
    }

    /// Walks `text` once, handing over each run of literal bytes and each hole in order.
    static func scan(_ text: UnsafeBufferPointer<UInt8>, literal: (Range<Int>) -> Void, hole: (Hole) -> Void) {
        var index = 0
        var literalStart = 0
        func found(_ kind: Hole, until end: Int) {
            if literalStart < index { literal(literalStart..<index) }
            hole(kind)
            index = end
            literalStart = end
        }
        while index < text.count {
            let byte = text[index]
            let previous = index > 0 ? text[index - 1] : UInt8(ascii: " ")
            if byte == UInt8(ascii: "/"), !isAlphanumeric(previous), previous != UInt8(ascii: "/"), previous != UInt8(ascii: "<") {
                var end = index + 1
                while end < text.count, !endsPath(text[end]) { end += 1 }
                // `/` alone (a ratio, a date) is text.
                if end - index > 1 {
                    found(.path, until: end)
                    continue
                }
            }
            if !isAlphanumeric(previous), byte == UInt8(ascii: "[") || isDigit(byte), let end = addressEnd(text, from: index) {
                found(.address, until: end)
                continue
            }
            if isDigit(byte) {
                var end = index
                while end < text.count, isDigit(text[end]) || (text[end] == UInt8(ascii: ".") && end + 1 < text.count && isDigit(text[end + 1])) { end += 1 }
                // Glued to a letter (`AH00957`, `Layer7`, `php8`), digits are part of a name.
                if !isLetter(previous), end == text.count || !isLetter(text[end]) {
                    found(.number, until: end)
                } else {
                    index = end
                }
                continue
            }
            index += 1
        }
        if literalStart < text.count { literal(literalStart..<text.count) }
    }

    /// The end of an IPv4 address (`10.0.0.1`, `10.0.0.1:8080`) or a bracketed IPv6 one
    /// (`[::1]:8080`) starting at `start`.
    private static func addressEnd(_ text: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var index = start
        if text[index] == UInt8(ascii: "[") {
            index += 1
            while index < text.count, isHexDigit(text[index]) || text[index] == UInt8(ascii: ":") { index += 1 }
            guard index < text.count, text[index] == UInt8(ascii: "]"), index > start + 2 else { return nil }
            index += 1
        } else {
            for part in 0..<4 {
                let digits = index
                while index < text.count, isDigit(text[index]), index - digits < 3 { index += 1 }
                guard index > digits else { return nil }
                if part < 3 {
                    guard index < text.count, text[index] == UInt8(ascii: ".") else { return nil }
                    index += 1
                }
            }
            if index < text.count, isAlphanumeric(text[index]) || text[index] == UInt8(ascii: ".") && index + 1 < text.count && isDigit(text[index + 1]) {
                return nil
            }
        }
        if index + 1 < text.count, text[index] == UInt8(ascii: ":"), isDigit(text[index + 1]) {
            index += 1
            while index < text.count, isDigit(text[index]) { index += 1 }
        }
        return index
    }

    static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
    static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || byte >= 0x80
    }
    static func isAlphanumeric(_ byte: UInt8) -> Bool { isDigit(byte) || isLetter(byte) || byte == UInt8(ascii: "_") }
    private static func isHexDigit(_ byte: UInt8) -> Bool { isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20) }

    /// What ends a path in a log line: space and the punctuation lines wrap paths in.
    static func endsPath(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: ","), UInt8(ascii: ")"),
            UInt8(ascii: "("), UInt8(ascii: ";"), UInt8(ascii: ">"), UInt8(ascii: "]"), UInt8(ascii: "\\"):
            true
        default: false
        }
    }
}
