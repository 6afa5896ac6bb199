/// Words of a question, or filler, that say nothing of what is searched for (`what does 504
/// mean`, `was bedeutet 502`, `not working`, `randomly`): the browser drops them from a query
/// that has other words, so they never decide the ranking. Folded and lower-cased as the
/// tokenizer cuts words. English's apply in every language: visitors mix it in; so do English's
/// stop words, which no English page is indexed under, and which would otherwise fall back to
/// the terms they begin (`for` to `forbidden`).
public enum QuestionWords {
    static let byLanguage: [String: String] = [
        "en": "what whats does do did mean means meaning why how my me im is are was the an can could get gets got getting when where which who "
            + "should please fix add help http https status code bug issue problem work works working quite while using use after "
            + "sometimes random randomly from just still always every keep keeps again we our you your have has had been",
        "de": "was wie warum weshalb bedeutet bedeutung heisst ich mein meine meiner ist sind der die das den ein eine kann konnen tun bei mir "
            + "hilfe",
        "fr": "que quoi qu pourquoi comment signifie veut dire mon ma mes est sont le la les un une je j faire ce cette aide",
        "es": "que por como cuando significa mi mis es son el los las un una puedo hacer yo ayuda",
    ]

    /// The words for a page in `language` (`de`, `de-AT`), English's included.
    public static func words(for language: String) -> [String] {
        let base = String(language.prefix { $0 != "-" && $0 != "_" }).lowercased()
        let own = base == "en" ? "" : byLanguage[base] ?? ""
        let words = (byLanguage["en"]! + " " + own).split(separator: " ").map(String.init)
        return words + SearchTokenizer.englishStopWords.filter { $0.count > 1 && !words.contains($0) }.sorted()
    }
}
