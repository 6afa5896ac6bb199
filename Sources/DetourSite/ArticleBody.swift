import Synchronization

/// One article's page body as written and in each translation, rendered on first use and
/// shared by every language's page that shows it. A build that renders each page once says
/// how many pages will ask (`pagesLeft`), and the texts are let go after the last: ten
/// thousand articles' HTML need not all be held until the end of the build.
final class ArticleBody: Sendable {
    private struct State {
        var original: LazyText?
        var translations: [String: LazyText]
        var pagesLeft: Int?
    }

    private let state: Mutex<State>

    init(original: LazyText, translations: [String: LazyText], pagesLeft: Int?) {
        state = Mutex(State(original: original, translations: translations, pagesLeft: pagesLeft))
    }

    /// The body of the article's page in `language`: its translation, else the text as written.
    func text(in language: String) -> String {
        let body = state.withLock { state -> LazyText? in
            let body = state.translations[language] ?? state.original
            guard let left = state.pagesLeft else { return body }
            state.pagesLeft = left - 1
            if left <= 1 { (state.original, state.translations) = (nil, [:]) }
            return body
        }
        assert(body != nil, "an article's body was asked for by more pages than were counted")
        return body?.text ?? ""
    }
}
