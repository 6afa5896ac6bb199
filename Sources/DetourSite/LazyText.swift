import DetourTemplates
import Mustache
import Synchronization

/// Text rendered the first time a template asks for it and then shared, like Hugo's cached
/// content views: a partial every page shows, an article's body its languages' pages share.
/// What it was made from (a Markdown tree) is let go once the text exists.
final class LazyText: DeferredText, MustacheCustomRenderable, Sendable {
    private enum State {
        case pending(@Sendable () -> String)
        case rendered(String)
    }

    private let state: Mutex<State>

    init(_ make: @escaping @Sendable () -> String) {
        state = Mutex(.pending(make))
    }

    var text: String {
        state.withLock { state in
            switch state {
            case .rendered(let text):
                return text
            case .pending(let make):
                let text = make()
                state = .rendered(text)
                return text
            }
        }
    }

    /// What swift-mustache shows, for a theme it renders.
    var renderText: String { text }
    var isNull: Bool { false }
}
