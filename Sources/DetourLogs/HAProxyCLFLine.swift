/// HAProxy's request log in its common log format (`option httplog clf`; 2.6's
/// `clf_http_log_format`): `client - - [date] "request" status bytes "" "" client_port ms
/// "frontend" "backend" "server" TR Tw Tc Tr Ta state …`, each name quoted. `detour diagnose`
/// reads it as the `option httplog` line with the same fields (`httplogView`), so one pattern
/// (`503 217 - - SC--`) serves both formats.
struct HAProxyCLFLine {
    var server: Range<Int>
    var status: Int
    /// The termination state's four characters.
    var state: Range<Int>
    /// The `option httplog` fields from `backend/server` to the state and the counters after
    /// it: `app/app1 0/0/-1/-1/1001 -1 0 - - CC-- 1/1/0/0/0 0/0`.
    var httplogView: [UInt8]

    /// Bytes after the date in which the fields up to the state are looked for (the request
    /// line is skipped whole).
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
        let end = min(line.count, requestEnd + 1 + lookedAt)
        // Status and bytes, then HAProxy's two empty quotes: other servers' common log lines
        // (nginx's, Apache's) stop here, before anything is collected.
        var at = requestEnd + 1
        for _ in 0..<2 {
            while at < end, line[at] == UInt8(ascii: " ") { at += 1 }
            while at < end, line[at] != UInt8(ascii: " ") { at += 1 }
        }
        guard line[at..<end].starts(with: #" "" "" "#.utf8) else { return nil }
        var fields: [Range<Int>] = []
        fields.reserveCapacity(22)
        at = requestEnd + 1
        // status bytes "" "" port ms frontend backend server TR Tw Tc Tr Ta state, then five
        // connection counts and two queues.
        while fields.count < 22, at < end {
            while at < end, line[at] == UInt8(ascii: " ") { at += 1 }
            guard at < end else { break }
            let start = at
            while at < end, line[at] != UInt8(ascii: " ") { at += 1 }
            fields.append(start..<at)
        }
        guard fields.count >= 15, line[fields[2]].elementsEqual("\"\"".utf8), line[fields[3]].elementsEqual("\"\"".utf8),
            let status = number(line[fields[0]]), (100...999).contains(status) || status == -1,
            fields[9..<14].allSatisfy({ number(line[$0]) != nil }), fields[14].count == 4
        else { return nil }
        let unquoted = { (field: Range<Int>) -> Range<Int> in
            field.count >= 2 && line[field.lowerBound] == quote && line[field.upperBound - 1] == quote
                ? (field.lowerBound + 1)..<(field.upperBound - 1) : field
        }
        let backend = unquoted(fields[7])
        let server = unquoted(fields[8])
        var view = Array(line[backend]) + [UInt8(ascii: "/")] + Array(line[server]) + [UInt8(ascii: " ")]
        view += fields[9..<14].map { Array(line[$0]) }.joined(separator: [UInt8(ascii: "/")]) + [UInt8(ascii: " ")]
        view += Array(line[fields[0]]) + [UInt8(ascii: " ")] + Array(line[fields[1]]) + Array(" - - ".utf8) + Array(line[fields[14]])
        if fields.count >= 22 {
            view += [UInt8(ascii: " ")] + fields[15..<20].map { Array(line[$0]) }.joined(separator: [UInt8(ascii: "/")])
            view += [UInt8(ascii: " ")] + Array(line[fields[20]]) + [UInt8(ascii: "/")] + Array(line[fields[21]])
        }
        return HAProxyCLFLine(server: server, status: status, state: fields[14], httplogView: view)
    }

    /// A whole field as a number, `-1` included.
    private static func number(_ field: UnsafeBufferPointer<UInt8>.SubSequence) -> Int? {
        let digits = field.first == UInt8(ascii: "-") ? field.dropFirst() : field
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy(LogPiece.isDigit) else { return nil }
        let value = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        return field.first == UInt8(ascii: "-") ? -value : value
    }
}
