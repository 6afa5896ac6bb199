import DetourContent
import DetourSearch
import Dispatch
import Foundation
import Synchronization

/// The build cache's share of a full build (`BuildCache.stage`), done on another thread while
/// the pages render, where it used to follow the build on one core: at 10,000 articles, copying
/// 50 MB of text and encoding the memo took a third of a second after everything else.
final class CacheStaging: Sendable {
    private let cache: BuildCache
    private let group = DispatchGroup()
    private let memo = Mutex<[UInt8]?>(nil)
    /// By language, whether its index memo was staged.
    private let searchMemos = Mutex<[String: Bool]>([:])

    init(_ cache: BuildCache, content: Content, includeDrafts: Bool, contentRoot: URL, inputs: String) {
        self.cache = cache
        DispatchQueue.global().async(group: group) { [self] in
            let rebuildMemo = RebuildMemo(content: content, includeDrafts: includeDrafts)
            let encoded = cache.stage(rebuildMemo, contentRoot: contentRoot, inputs: inputs)
            memo.withLock { $0 = encoded }
        }
    }

    /// A language's index memo, written as soon as the index is made, not held until the end.
    func stage(_ searchMemo: SearchIndexMemo, language: String) {
        let staged = cache.stage(searchMemo, language: language)
        searchMemos.withLock { $0[language] = staged }
    }

    /// Once the output is in place: the staged texts and memos take the last build's place.
    func save() {
        group.wait()
        cache.save(staged: memo.withLock { $0 }, stagedSearch: searchMemos.withLock { $0 })
    }

    /// When the build puts no output in place.
    func discard() {
        group.wait()
        cache.discardStaged(languages: Array(searchMemos.withLock { $0 }.keys))
    }
}
