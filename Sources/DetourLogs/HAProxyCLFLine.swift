/// HAProxy's request log in its common log format (`option httplog clf`; 2.6's
/// `clf_http_log_format`): `client - - [date] "request" status bytes "" "" client_port ms
/// "frontend" "backend" "server" TR Tw Tc Tr Ta state ac fc bc sc rc sq bq …`, each name quoted.
/// `detour diagnose` reads it as the `option httplog` line with the same fields (`httplogView`),
/// so one pattern (`503 217 - - SC--`) serves both formats. Read without allocating: it runs on
/// every line of an access log that no pattern matched as written.
struct HAProxyCLFLine {
    var status: Int
    var statusField: Range<Int>
    var bytes: Range<Int>
    var backend: Range<Int>
    var server: Range<Int>
    /// From the first timer to the last, space-separated.
    var timers: Range<Int>
    /// The termination state's four characters.
    var state: Range<Int>
    /// The five connection counts and the two queues, space-separated, where the line has them.
    var counts: Range<Int>?
    var queues: Range<Int>?

    /// Bytes after the request in which the fields up to the queues are looked for.
    private static let lookedAt = 400

    static func of(_ line: UnsafeBufferPointer<UInt8>) -> HAProxyCLFLine? {
        let quote = UInt8(ascii: "\"")
        // The date's brackets (`[10/Mar/2022:14:00:56 +0000]`): syslog's `haproxy[123]:` may come first.
        var from = 0
        var date: Int?
        while date == nil, let open = line[from...].firstIndex(of: UInt8(ascii: "[")), let close = line[open...].firstIndex(of: UInt8(ascii: "]")) {
            from = close
            if close - open > 20, line[(open + 1)..<close].contains(UInt8(ascii: "/")) { date = close }
        }
        guard let close = date, close + 2 < line.count, line[close + 2] == quote, let requestEnd = line[(close + 3)...].firstIndex(of: quote)
        else { return nil }
        var fields = LogFieldReader(line: line, at: requestEnd + 1, end: min(line.count, requestEnd + 1 + lookedAt))
        // Status and bytes, then HAProxy's two empty quotes: other servers' common log lines
        // (nginx's, Apache's) stop here.
        guard let statusField = fields.next(), let bytes = fields.next(), let empty1 = fields.next(), let empty2 = fields.next(),
            line[empty1].elementsEqual("\"\"".utf8), line[empty2].elementsEqual("\"\"".utf8),
            let status = number(line[statusField]), (100...999).contains(status) || status == -1,
            fields.next() != nil, fields.next() != nil, fields.next() != nil,  // client port, milliseconds, frontend
            let backend = fields.next(), let server = fields.next()
        else { return nil }
        var firstTimer: Range<Int>?
        var lastTimer: Range<Int>?
        for _ in 0..<5 {
            guard let timer = fields.next(), number(line[timer]) != nil else { return nil }
            firstTimer = firstTimer ?? timer
            lastTimer = timer
        }
        guard let firstTimer, let lastTimer, let state = fields.next(), state.count == 4 else { return nil }
        var line = HAProxyCLFLine(
            status: status, statusField: statusField, bytes: bytes, backend: unquoted(backend, in: line), server: unquoted(server, in: line),
            timers: firstTimer.lowerBound..<lastTimer.upperBound, state: state)
        line.counts = fields.span(5)
        line.queues = line.counts == nil ? nil : fields.span(2)
        return line
    }

    /// The `option httplog` fields from `backend/server` to the queues, as HAProxy writes them
    /// there: `app/app1 0/0/-1/-1/1001 -1 0 - - CC-- 1/1/0/0/0 0/0`.
    func httplogView(of line: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        let slash = UInt8(ascii: "/")
        let space = UInt8(ascii: " ")
        let slashed = { (span: Range<Int>) in line[span].lazy.map { $0 == space ? slash : $0 } }
        var view: [UInt8] = []
        view.reserveCapacity(backend.count + server.count + timers.count + 64)
        view += line[backend]
        view.append(slash)
        view += line[server]
        view.append(space)
        view += slashed(timers)
        view.append(space)
        view += line[statusField]
        view.append(space)
        view += line[bytes]
        view += " - - ".utf8
        view += line[state]
        if let counts, let queues {
            view.append(space)
            view += slashed(counts)
            view.append(space)
            view += slashed(queues)
        }
        return view
    }

    private static func unquoted(_ field: Range<Int>, in line: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        let quote = UInt8(ascii: "\"")
        return field.count >= 2 && line[field.lowerBound] == quote && line[field.upperBound - 1] == quote
            ? (field.lowerBound + 1)..<(field.upperBound - 1) : field
    }

    /// A whole field as a number, `-1` included.
    fileprivate static func number(_ field: UnsafeBufferPointer<UInt8>.SubSequence) -> Int? {
        let digits = field.first == UInt8(ascii: "-") ? field.dropFirst() : field
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy(LogPiece.isDigit) else { return nil }
        let value = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        return field.first == UInt8(ascii: "-") ? -value : value
    }
}

extension LogFieldReader {
    /// The next `count` fields, each a number, from the first's start to the last's end.
    mutating func span(_ count: Int) -> Range<Int>? {
        var first: Int?
        var last = 0
        for _ in 0..<count {
            guard let field = next(), HAProxyCLFLine.number(line[field]) != nil else { return nil }
            first = first ?? field.lowerBound
            last = field.upperBound
        }
        return first.map { $0..<last }
    }
}
