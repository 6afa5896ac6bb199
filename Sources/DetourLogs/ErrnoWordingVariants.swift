extension ErrnoWording {
    /// `pattern`, and the same pattern as musl words each errno text in it: an errno's text
    /// counts where it stands beside its number the way nginx (`(110: Connection timed out)`),
    /// Apache (`(110)Connection timed out:`) and PHP-FPM (`Address already in use (98)`) print
    /// it. The number is left as written; a pattern's numbers match any number.
    static func variants(of pattern: String) -> [String] {
        var variant = pattern
        for wording in differing {
            for opening in ["(\(wording.number): ", "(\(wording.number))"] {
                variant = variant.replacing(opening + wording.glibc, with: opening + wording.musl)
            }
            variant = variant.replacing(wording.glibc + " (\(wording.number))", with: wording.musl + " (\(wording.number))")
        }
        return variant == pattern ? [pattern] : [pattern, variant]
    }
}
