/// A directive's words with its nested block, counted from 0, as a view into the words of the
/// block around it: a route nested thousands deep is looked at level by level without copying
/// what it holds at every level.
struct CaddyLine: RandomAccessCollection, Sendable {
    let words: ArraySlice<CaddyToken>

    init(_ words: ArraySlice<CaddyToken>) {
        self.words = words
    }

    init(_ words: [CaddyToken]) {
        self.words = words[...]
    }

    var startIndex: Int { 0 }
    var endIndex: Int { words.count }

    subscript(position: Int) -> CaddyToken { words[words.startIndex + position] }

    subscript(bounds: Range<Int>) -> CaddyLine {
        CaddyLine(words[(words.startIndex + bounds.lowerBound)..<(words.startIndex + bounds.upperBound)])
    }

    /// Its own copy, for what outlives the block.
    var tokens: [CaddyToken] { Array(words) }
}
