/// Reason phrases for status lines (RFC 9110 and the IANA registry). A status line written into
/// an HAProxy errorfile must carry one; a code without a registered phrase gets its title.
enum HTTPStatus {
    private static let phrases: [Int: String] = [
        400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden", 404: "Not Found",
        405: "Method Not Allowed", 406: "Not Acceptable", 407: "Proxy Authentication Required", 408: "Request Timeout",
        409: "Conflict", 410: "Gone", 411: "Length Required", 412: "Precondition Failed", 413: "Content Too Large",
        414: "URI Too Long", 415: "Unsupported Media Type", 416: "Range Not Satisfiable", 417: "Expectation Failed",
        421: "Misdirected Request", 422: "Unprocessable Content", 423: "Locked", 424: "Failed Dependency",
        425: "Too Early", 426: "Upgrade Required", 428: "Precondition Required", 429: "Too Many Requests",
        431: "Request Header Fields Too Large", 451: "Unavailable For Legal Reasons",
        500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
        504: "Gateway Timeout", 505: "HTTP Version Not Supported", 506: "Variant Also Negotiates",
        507: "Insufficient Storage", 508: "Loop Detected", 510: "Not Extended", 511: "Network Authentication Required",
    ]

    /// A phrase safe for a status line: the registered one, else `title` reduced to printable ASCII.
    static func reasonPhrase(_ status: Int, title: String) -> String {
        if let phrase = phrases[status] { return phrase }
        let ascii = String(title.unicodeScalars.filter { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F }.map(Character.init))
        return ascii.isEmpty ? "Error" : ascii
    }

    /// `HTTP/1.0 503 Service Unavailable` and headers, then `body`: what HAProxy sends as is.
    static func response(status: Int, title: String, mediaType: String, retryAfter: Int?, body: String) -> String {
        var head = "HTTP/1.0 \(status) \(reasonPhrase(status, title: title))\r\n"
        head += "Content-Type: \(mediaType)\r\n"
        head += "Content-Length: \(body.utf8.count)\r\n"
        head += "Cache-Control: no-store\r\n"
        // The layer that made the page, as the snippets name it, for a cache in front.
        head += "X-Detour-Page: haproxy\r\n"
        if let retryAfter { head += "Retry-After: \(retryAfter)\r\n" }
        head += "Connection: close\r\n\r\n"
        return head + body
    }
}
