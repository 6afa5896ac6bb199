import Glibc

/// The upstream or socket a line names, as each server writes it: nginx's `upstream:
/// "http://127.0.0.1:8080/"`, Apache's `attempt to connect to 127.0.0.1:8080` and `remote
/// server 127.0.0.1:8080`, Go's (Caddy's) `dial tcp 127.0.0.1:8080`, `dial unix
/// /run/app.sock` and `read tcp 127.0.0.1:40000->127.0.0.1:8080`, HAProxy's `Server app/app1`
/// and its request log's `backend/server` field. It tells an operator which of several upstreams
/// failed: the address, never the request's path.
enum LogUpstream {
    /// Which server wrote a line, as far as its first bytes tell: each writes its upstream in
    /// its own words, so only those are looked for. A line of another shape (syslog's prefix
    /// hides the server) is searched for every server's words.
    enum Format: CaseIterable {
        /// `2026/11/20 10:00:01 [error] …`
        case nginx
        /// `[Fri Nov 20 10:00:16.123456 2026] [proxy:error] …`
        case apache
        /// `{"level":"error",…}`
        case json
        case other

        static func of(_ whole: UnsafeBufferPointer<UInt8>) -> Format {
            // Through syslog or journald, what the server wrote starts after their prefix.
            let line = UnsafeBufferPointer(rebasing: whole[LogPrefix.end(of: whole)...])
            guard let first = line.first else { return .other }
            if first == UInt8(ascii: "{") { return .json }
            // `[Fri ` opens Apache's lines; HAProxy's raw `[WARNING]` and PHP-FPM's `[20-Nov-2026`
            // are other shapes.
            if first == UInt8(ascii: "["), line.count > 5, line[1...3].allSatisfy(LogPiece.isLetter), line[4] == UInt8(ascii: " ") { return .apache }
            if line.count > 10, LogPiece.isDigit(first), line[4] == UInt8(ascii: "/"), line[7] == UInt8(ascii: "/") { return .nginx }
            return .other
        }
    }

    private struct Marker {
        var text: [UInt8]
        /// What ends the value after the marker.
        var terminators: Set<UInt8>
        /// Whether the value must name a backend and a server (`app/app1`), as HAProxy's do.
        var needsSlash = false
        var formats: Set<Format>

        init(_ text: String, until terminators: String, in formats: Set<Format>, needsSlash: Bool = false) {
            self.text = Array(text.utf8)
            self.terminators = Set(terminators.utf8)
            self.formats = formats.union([.other])
            self.needsSlash = needsSlash
        }
    }

    private static let markers: [Marker] = [
        Marker(#"upstream: ""#, until: #"""#, in: [.nginx]),
        Marker("attempt to connect to ", until: " ", in: [.apache]),
        Marker("disabling worker for (", until: ")", in: [.apache]),
        Marker("from remote server ", until: " ,", in: [.apache]),
        Marker("connection to backend: ", until: " ,", in: [.apache]),
        Marker("dial tcp ", until: " ", in: [.json]),
        Marker("dial unix ", until: " ", in: [.json]),
        Marker("->", until: " ", in: [.json]),
        // Last of JSON's: a JSON line is full of quotes for memchr to stop at.
        Marker(#""upstream":""#, until: #"""#, in: [.json]),
        Marker("Server ", until: " ", in: [], needsSlash: true),
        Marker("check for server ", until: " ", in: [], needsSlash: true),
    ]

    /// The markers to look for in a line of each format, in the order above.
    private static let markersByFormat: [Format: [Marker]] = Dictionary(
        uniqueKeysWithValues: Format.allCases.map { format in (format, markers.filter { $0.formats.contains(format) }) })

    /// Longest value kept: an upstream is an address or a path.
    static let maximumLength = 200

    /// The upstream the line names, or nil.
    static func of(_ line: UnsafeBufferPointer<UInt8>) -> String? {
        range(in: line).map { String(decoding: line[$0], as: UTF8.self) }
    }

    /// Where in the line the upstream is written, without the request's path.
    static func range(in line: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        guard let base = line.baseAddress else { return nil }
        let format = Format.of(line)
        for marker in markersByFormat[format]! {
            guard let start = find(marker.text, in: line, base: base) else { continue }
            var end = start
            while end < line.count, end - start < maximumLength, !marker.terminators.contains(line[end]) { end += 1 }
            // Go writes `dial tcp 127.0.0.1:8080: connect: …`.
            if end > start, line[end - 1] == UInt8(ascii: ":") { end -= 1 }
            let value = line[start..<end]
            // An address, a host name or a path: not a word of the message.
            guard value.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "/") }),
                !marker.needsSlash || value.contains(UInt8(ascii: "/"))
            else { continue }
            return start..<withoutPath(line, start..<end)
        }
        return format == .other ? haproxyServer(line) : nil
    }

    /// Where the upstream in `value` ends: nginx's `http://127.0.0.1:8080/shop/cart` without
    /// `/shop/cart`, `fastcgi://unix:/run/php.sock:/index.php` without `:/index.php`.
    static func withoutPath(_ line: UnsafeBufferPointer<UInt8>, _ value: Range<Int>) -> Int {
        let scheme = Array("://".utf8)
        var at = value.lowerBound
        while at + scheme.count <= value.upperBound, !line[at..<(at + scheme.count)].elementsEqual(scheme) { at += 1 }
        guard at + scheme.count <= value.upperBound else { return value.upperBound }
        let rest = (at + scheme.count)..<value.upperBound
        if line[rest].starts(with: "unix:".utf8) {
            return line[(rest.lowerBound + 5)..<rest.upperBound].firstIndex(of: UInt8(ascii: ":")) ?? value.upperBound
        }
        return line[rest].firstIndex(of: UInt8(ascii: "/")) ?? value.upperBound
    }

    /// The `backend/server` field of HAProxy's request log; `<NOSRV>` (no server was chosen) is
    /// no upstream.
    private static func haproxyServer(_ line: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        guard let request = HAProxyRequestLine.of(line), !line[request.server].contains(UInt8(ascii: "<")) else { return nil }
        return request.server
    }

    /// Where `text` ends in the line, if it occurs.
    private static func find(_ text: [UInt8], in line: UnsafeBufferPointer<UInt8>, base: UnsafePointer<UInt8>) -> Int? {
        guard line.count >= text.count else { return nil }
        // memchr for the first byte, then memcmp: both vectorised in the C library.
        var start = 0
        let last = line.count - text.count
        while start <= last, let found = memchr(base + start, Int32(text[0]), last - start + 1) {
            let at = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if text.withUnsafeBytes({ memcmp(base + at, $0.baseAddress!, text.count) }) == 0 { return at + text.count }
            start = at + 1
        }
        return nil
    }
}
