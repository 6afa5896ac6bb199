/// What a theme's script loses on its way to the site: comments, indentation, blank lines and
/// the spaces between tokens that need none (`ScriptSpaces`). Newlines stay, so the script means
/// what its source means (automatic semicolons fall where they fell).
///
/// A line can only be mistaken for a comment inside text or a comment that spans lines, and
/// those open on a line of code: a script whose code has a backtick (a template literal), a line
/// continued by a backslash, or a `/*` not closed on its line is written as it is.
enum ScriptMinifier {
    static func minify(_ bytes: [UInt8]) -> [UInt8] {
        guard let text = String(validating: bytes, as: UTF8.self) else { return bytes }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var kept: [Substring] = []
        var inComment = false
        for line in lines {
            var code = line.drop(while: { $0 == " " || $0 == "\t" })
            if inComment || code.hasPrefix("/*") {
                guard let end = code.firstRange(of: "*/", startingAt: inComment ? 0 : 2) else {
                    inComment = true
                    continue
                }
                inComment = false
                code = code[end.upperBound...].drop(while: { $0 == " " || $0 == "\t" })
            }
            if code.hasPrefix("//") || code.allSatisfy({ $0 == "\r" }) { continue }
            kept.append(code)
        }
        guard !kept.contains(where: opensTextOrCommentAcrossLines) else { return bytes }
        return ScriptSpaces.compact(Array((kept.joined(separator: "\n") + (text.hasSuffix("\n") ? "\n" : "")).utf8))
    }

    private static func opensTextOrCommentAcrossLines(_ code: Substring) -> Bool {
        if code.contains("`") || code.last == "\\" || code.hasSuffix("\\\r") { return true }
        guard let open = code.ranges(of: "/*").last else { return false }
        return code[open.upperBound...].firstRange(of: "*/") == nil
    }
}

extension Substring {
    /// `firstRange(of:)` from the `offset`th character on: the `*` of `/*` cannot close it.
    fileprivate func firstRange(of target: String, startingAt offset: Int) -> Range<Index>? {
        self[index(startIndex, offsetBy: offset)...].firstRange(of: target)
    }
}
