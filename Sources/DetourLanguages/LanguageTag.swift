import Foundation

/// BCP 47 language tags as `site.yml` lists them (`en`, `pt-BR`, `zh-Hant`).
public enum LanguageTag {
    /// ISO 639-1 codes: a two-letter primary subtag outside this list is a typo, not a language.
    private static let iso639Part1: Set<String> = Set(
        """
        aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz \
        ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik \
        io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml \
        mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd \
        se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi \
        vo wa wo xh yi yo za zh zu
        """.split(separator: " ").map(String.init))

    /// Why `tag` is not a usable language tag, or nil when it is.
    public static func problem(with tag: String) -> String? {
        guard tag.range(of: #"^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$"#, options: .regularExpression) != nil else {
            return "must be a language tag such as 'en' or 'pt-BR', not '\(tag)'"
        }
        let primary = tag.prefix { $0 != "-" }.lowercased()
        if primary.count == 2, !iso639Part1.contains(primary) {
            return "'\(tag)' is not a known language: '\(primary)' is no ISO 639-1 code"
        }
        return nil
    }
}
