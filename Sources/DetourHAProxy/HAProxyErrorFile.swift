import Foundation

/// What is wrong with a file HAProxy sends as a whole response (`errorfile`), as HAProxy 2.6
/// reads it: `haproxy -c` refuses some of these and passes the others.
enum HAProxyErrorFile {
    enum Problem: Equatable {
        /// Refused by neither `haproxy -c` nor the start: the connection closes with no response.
        case empty
        /// No `HTTP/1.x NNN` status line and blank line: `haproxy -c` refuses ("unable to parse headers").
        case notHTTP
        /// `haproxy -c` refuses ("payload size does not match the announced content-length").
        case contentLength(announced: Int, body: Int)
        /// More than `tune.bufsize`: HAProxy reads that much only, so it refuses the file.
        case tooLarge(size: Int, limit: Int)
        /// The status line's code is not the one the file is for: sent as written.
        case statusLine(Int)
        /// Over `tune.bufsize − tune.maxrewrite`: only a real start warns ("runs over the buffer
        /// space reserved to headers rewriting"); an `http-after-response` rule that adds more
        /// than the room left makes HAProxy answer its own 500 instead.
        case overRewriteSpace(size: Int, limit: Int)
    }

    static func problems(_ bytes: [UInt8], code: Int, bufferSize: Int, maxRewrite: Int) -> [Problem] {
        guard !bytes.isEmpty else { return [.empty] }
        if bytes.count > bufferSize { return [.tooLarge(size: bytes.count, limit: bufferSize)] }
        guard let (status, headers, bodyStart) = head(bytes) else { return [.notHTTP] }
        var found: [Problem] = []
        if let length = headers.first(where: { $0.name == "content-length" }).flatMap({ Int($0.value) }), length != bytes.count - bodyStart {
            found.append(.contentLength(announced: length, body: bytes.count - bodyStart))
        }
        if status != code { found.append(.statusLine(status)) }
        if bytes.count > bufferSize - maxRewrite { found.append(.overRewriteSpace(size: bytes.count, limit: bufferSize - maxRewrite)) }
        return found
    }

    /// The status line's code, the headers (names lowercased) and where the body starts.
    private static func head(_ bytes: [UInt8]) -> (Int, [(name: String, value: String)], Int)? {
        var lines: [String] = []
        var start = 0
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") {
                var end = index
                if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                let line = String(decoding: bytes[start..<end], as: UTF8.self)
                if line.isEmpty { return parsed(lines, bodyStart: index + 1) }
                lines.append(line)
                start = index + 1
            }
            index += 1
        }
        return nil
    }

    private static func parsed(_ lines: [String], bodyStart: Int) -> (Int, [(name: String, value: String)], Int)? {
        guard let first = lines.first else { return nil }
        let parts = first.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3, let status = Int(parts[1]) else { return nil }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            headers.append((line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        return (status, headers, bodyStart)
    }
}
