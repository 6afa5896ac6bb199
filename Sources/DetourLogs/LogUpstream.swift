/// The upstream or socket a line names, as each server writes it: nginx's `upstream:
/// "http://127.0.0.1:8080/"`, Apache's `attempt to connect to 127.0.0.1:8080` and `remote
/// server 127.0.0.1:8080`, Go's (Caddy's) `dial tcp 127.0.0.1:8080`, `dial unix
/// /run/app.sock` and `read tcp 127.0.0.1:40000->127.0.0.1:8080`, HAProxy's `Server app/app1`
/// and its request log's `backend/server` field. It tells an operator which of several upstreams
/// failed: the address, never the request's path.
enum LogUpstream {
    private struct Marker {
        var text: [UInt8]
        /// What ends the value after the marker.
        var terminators: Set<UInt8>
        /// Whether the value must name a backend and a server (`app/app1`), as HAProxy's do.
        var needsSlash = false
        var formats: Set<LogFormat>

        init(_ text: String, until terminators: String, in formats: Set<LogFormat>, needsSlash: Bool = false) {
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
    private static let markersByFormat: [LogFormat: [Marker]] = Dictionary(
        uniqueKeysWithValues: LogFormat.allCases.map { format in (format, markers.filter { $0.formats.contains(format) }) })

    /// Longest value kept: an upstream is an address or a path.
    static let maximumLength = 200

    /// The upstream the line names, or nil.
    static func of(_ line: UnsafeBufferPointer<UInt8>) -> String? {
        range(in: line, format: LogFormat.of(line, ownStart: LogPrefix.end(of: line))).map { String(decoding: line[$0], as: UTF8.self) }
    }

    /// Where in the line, of `format`, the upstream is written, without the request's path.
    static func range(in line: UnsafeBufferPointer<UInt8>, format: LogFormat) -> Range<Int>? {
        for marker in markersByFormat[format]! {
            guard let start = LogSearch.end(of: marker.text, in: line) else { continue }
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
}
