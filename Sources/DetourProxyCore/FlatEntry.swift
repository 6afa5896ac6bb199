/// One directive of a flat store: where its words are, and where its block ends. Plain
/// numbers, so a whole configuration is a few flat arrays that copy and free without
/// reference counting. `Name` is the dialect's own code for a directive's name.
public struct FlatEntry<Name: Sendable>: Sendable {
    /// The file (an index into the configuration's files) whose words these are.
    public var file: Int32
    /// The name is the first word; the arguments follow it.
    public var firstWord: Int32
    public var wordCount: Int32
    /// The index after this directive's block (after the directive itself when it has none).
    public var end: Int32
    /// The dialect's code for the name; nil for a name it does not know.
    public var name: Name?
    public var isBlock: Bool
    /// Where a block's closing word is (0 while unknown): a server may report what it checks
    /// at a block's end there.
    public var closeLine: Int32 = 0
    public var closeColumn: Int32 = 0

    public init(file: Int32, firstWord: Int32, wordCount: Int32, end: Int32, name: Name?, isBlock: Bool) {
        self.file = file
        self.firstWord = firstWord
        self.wordCount = wordCount
        self.end = end
        self.name = name
        self.isBlock = isBlock
    }
}
