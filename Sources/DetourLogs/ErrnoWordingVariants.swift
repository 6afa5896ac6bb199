extension ErrnoWording {
    /// `pattern`, the same pattern as musl words each errno text in it, and as an nginx that
    /// knows no errno text words it (`unknownWording`): an errno's text
    /// counts where it stands beside its number the way nginx (`(110: Connection timed out)`),
    /// Apache (`(110)Connection timed out:`) and PHP-FPM (`Address already in use (98)`) print
    /// it. The number is left as written; a pattern's numbers match any number.
    static func variants(of pattern: String) -> [String] {
        var variant = pattern
        var bytes = Array(pattern.utf8)
        // Most patterns hold no errno text. The log reader's byte search says so at little cost,
        // where String's own replacing, asked for every form, would count at thousands of articles.
        for form in forms where bytes.withUnsafeBufferPointer({ LogSearch.end(of: form.glibcBytes, in: $0) != nil }) {
            variant = variant.replacing(form.glibc, with: form.musl)
            bytes = Array(variant.utf8)
        }
        let worded = variant == pattern ? [pattern] : [pattern, variant]
        return worded + [unknownWording(of: pattern)].compactMap { $0 }
    }

    /// `pattern` with each errno nginx prints (`(111: Connection refused)`) as an nginx whose
    /// errno table is empty prints it, `(111: Unknown error)`: the number alone says which errno
    /// it is, so it is kept as written (between backticks), where a pattern's numbers otherwise
    /// match any number. Nil when `pattern` holds no such errno.
    static func unknownWording(of pattern: String) -> String? {
        guard pattern.contains(": ") else { return nil }
        var result = ""
        var rest = Substring(pattern)
        var changed = false
        while let open = rest.firstIndex(of: "(") {
            result += rest[..<open]
            let inside = rest[rest.index(after: open)...]
            let digits = inside.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, inside[digits.endIndex...].hasPrefix(": "), let close = inside.firstIndex(of: ")"),
                inside[inside.index(digits.endIndex, offsetBy: 2)..<close].allSatisfy({ $0.isLetter || $0 == " " || $0 == "-" || $0 == "/" })
            else {
                result += "("
                rest = inside
                continue
            }
            result += "`(\(digits): Unknown error)`"
            rest = inside[inside.index(after: close)...]
            changed = true
        }
        return changed ? result + rest : nil
    }

    /// Each differing text in the three forms the servers print it in, glibc's and musl's.
    private static let forms: [(glibc: String, glibcBytes: [UInt8], musl: String)] = differing.flatMap { wording in
        [
            ("(\(wording.number): \(wording.glibc)", "(\(wording.number): \(wording.musl)"),
            ("(\(wording.number))\(wording.glibc)", "(\(wording.number))\(wording.musl)"),
            ("\(wording.glibc) (\(wording.number))", "\(wording.musl) (\(wording.number))"),
        ].map { glibc, musl in (glibc, Array(glibc.utf8), musl) }
    }
}
