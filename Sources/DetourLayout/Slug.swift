/// URL- and id-safe names: lowercase ASCII letters, digits and hyphens, as GitHub and Hugo make them.
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

    /// A slug given by a user (file name or `slug:`) must already be in this form.
    public static func isValid(_ slug: String) -> Bool {
        !slug.isEmpty && make(slug) == slug
    }
}
