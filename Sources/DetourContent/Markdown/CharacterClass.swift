/// The character classes CommonMark's delimiter and autolink rules are written in, as cmark
/// defines them: white space and punctuation are Unicode-aware, letters and digits ASCII.
enum CharacterClass {
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 9, 10, 12, 13, 32, 0xA0, 0x1680, 0x2000...0x200A, 0x202F, 0x205F, 0x3000: return true
        default: return false
        }
    }

    static func isPunctuation(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            let value = scalar.value
            return (0x21...0x2F).contains(value) || (0x3A...0x40).contains(value) || (0x5B...0x60).contains(value) || (0x7B...0x7E).contains(value)
        }
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation, .finalPunctuation,
            .otherPunctuation:
            return true
        default:
            return false
        }
    }

    /// `cmark_isspace`: ASCII white space only.
    static func isASCIISpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || ("\t"..."\r").contains(scalar)
    }

    static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool { ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) }

    static func isASCIIAlphanumeric(_ scalar: Unicode.Scalar) -> Bool { isASCIILetter(scalar) || ("0"..."9").contains(scalar) }

    /// A character a domain name may hold (besides `-`, `_` and `.`, which the caller weighs).
    static func isHostCharacter(_ scalar: Unicode.Scalar) -> Bool { !isSpace(scalar) && !isPunctuation(scalar) }
}
