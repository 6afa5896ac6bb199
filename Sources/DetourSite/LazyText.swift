import Mustache
import Synchronization

/// Text rendered the first time a template asks for it and then shared, like Hugo's cached
/// content views. Lists that show thousands of article cards render each card once.
final class LazyText: MustacheCustomRenderable, Sendable {
    private let make: @Sendable () -> String
    private let cache = Mutex<String?>(nil)

    init(_ make: @escaping @Sendable () -> String) {
        self.make = make
    }

    var renderText: String {
        cache.withLock { cached in
            if let cached { return cached }
            let text = make()
            cached = text
            return text
        }
    }

    var isNull: Bool { false }
}
