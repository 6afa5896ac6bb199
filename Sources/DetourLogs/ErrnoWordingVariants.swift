extension ErrnoWording {
    /// `pattern`, and the same pattern as musl words each errno text in it: an errno's text
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
        return variant == pattern ? [pattern] : [pattern, variant]
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
