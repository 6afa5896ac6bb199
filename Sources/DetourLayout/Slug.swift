/// URL-safe names (lowercase letters, digits and hyphens, as Hugo makes them), and heading ids
/// as GitHub makes them.
public enum Slug {
    public static func make(_ text: String) -> String {
        var slug = ""
        var pendingHyphen = false
        for scalar in text.lowercased().unicodeScalars {
            // ASCII by its ranges: the Unicode properties are looked up in tables, and every
            // heading of every article is made a slug.
            let keptASCII = ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
            if keptASCII {
                if pendingHyphen, !slug.isEmpty { slug.append("-") }
                pendingHyphen = false
                slug.unicodeScalars.append(scalar)
            } else if !scalar.isASCII, scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                // Keep non-Latin letters so headings in other scripts still get readable ids.
                if pendingHyphen, !slug.isEmpty { slug.append("-") }
                pendingHyphen = false
                slug.unicodeScalars.append(scalar)
            } else {
                pendingHyphen = true
            }
        }
        return slug
    }

    /// A heading's id as GitHub makes it (its slugger's rule): lower-cased; punctuation but `-`
    /// and `_`, symbols, controls, formats, unassigned code points and separators but the ASCII
    /// space dropped, unless alphabetic; each space a hyphen. Nothing is collapsed or trimmed:
    /// `a - b` is `a---b`, as in-page links written for GitHub expect.
    public static func github(_ text: String) -> String {
        var slug = String.UnicodeScalarView()
        for scalar in text.lowercased().unicodeScalars {
            if scalar == " " {
                slug.append("-")
            } else if scalar.isASCII {
                // ASCII by its ranges, the common case: the properties are table lookups.
                if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_" { slug.append(scalar) }
            } else if scalar.properties.isAlphabetic || !droppedFromGitHubIDs.contains(scalar.properties.generalCategory) {
                slug.append(scalar)
            }
        }
        return String(slug)
    }

    private static let droppedFromGitHubIDs: Set<Unicode.GeneralCategory> = [
        .otherNumber, .openPunctuation, .closePunctuation, .initialPunctuation, .finalPunctuation, .otherPunctuation, .dashPunctuation,
        .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol, .control, .privateUse, .format, .unassigned, .spaceSeparator,
        .lineSeparator, .paragraphSeparator,
    ]

    /// A slug given by a user (file name or `slug:`) must already be in this form.
    public static func isValid(_ slug: String) -> Bool {
        !slug.isEmpty && make(slug) == slug
    }
}
