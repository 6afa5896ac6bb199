/// A block of a Caddyfile: its addresses (none for the global options block) and its lines,
/// each a directive with its arguments and nested block, imports spliced in.
struct CaddySiteBlock: Sendable {
    var keys: [CaddyToken] = []
    var segments: [[CaddyToken]] = []
    var hasBraces = false
    /// The first token of the block, where findings about the whole site point.
    var start: CaddyToken?

    /// The global options block: braces and no address, written first.
    var isGlobalOptions: Bool { keys.isEmpty && hasBraces }

    /// A `}` among the addresses: a closing brace that matched nothing, read as an address.
    var hasStrayBrace: Bool { keys.contains { $0.text == "}" && !$0.isQuoted } }
}
