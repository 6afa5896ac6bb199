/// The status of a request log line in the Common or Combined Log Format, which nginx's,
/// Apache's, gunicorn's and varnishncsa's access logs write by default: `client - user
/// [10/Oct/2026:13:55:36 +0000] "GET / HTTP/1.1" 200 612 …`; and PHP-FPM's access log, whose
/// default writes the time without brackets and the request without its protocol
/// (`127.0.0.1 -  19/May/2024:14:09:26 +0000 "GET /index.php" 404`). The status is the number
/// right after the quoted request; the date before the quote tells such a line from another
/// that quotes something and then a number.
enum CommonLogLine {
    /// Bytes of a line in which the quoted request is looked for.
    private static let lookedAt = 400

    /// The status `line` says its request got.
    static func status(_ line: UnsafeBufferPointer<UInt8>) -> Int? {
        let quote = UInt8(ascii: "\"")
        let head = UnsafeBufferPointer(rebasing: line.prefix(lookedAt))
        guard let open = head.firstIndex(of: quote), hasDate(head[..<open]) else { return nil }
        // nginx writes a quote inside the request as `\x22`, Apache as `\"`: skip escaped ones.
        var at = open + 1
        while at < line.count, line[at] != quote {
            at += line[at] == UInt8(ascii: "\\") ? 2 : 1
        }
        let digits = (at + 2)..<(at + 5)
        guard digits.upperBound <= line.count, line[at + 1] == UInt8(ascii: " "), line[digits].allSatisfy(LogPiece.isDigit),
            (UInt8(ascii: "1")...UInt8(ascii: "5")).contains(line[digits.lowerBound]),
            digits.upperBound == line.count || line[digits.upperBound] == UInt8(ascii: " ")
        else { return nil }
        return line[digits].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    /// Whether `text` holds the log's date, `10/Oct/2026:13:55:36`: a day, a month's name and
    /// a year between slashes, then a colon.
    private static func hasDate(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        var at = text.startIndex
        while let slash = text[at...].firstIndex(of: UInt8(ascii: "/")) {
            let month = (slash + 1)..<(slash + 4)
            if slash >= text.startIndex + 2, month.upperBound + 6 <= text.endIndex, LogPiece.isDigit(text[slash - 1]),
                text[month].allSatisfy(LogPiece.isLetter), text[month.upperBound] == UInt8(ascii: "/"),
                text[(month.upperBound + 1)..<(month.upperBound + 5)].allSatisfy(LogPiece.isDigit), text[month.upperBound + 5] == UInt8(ascii: ":")
            {
                return true
            }
            at = slash + 1
        }
        return false
    }
}
