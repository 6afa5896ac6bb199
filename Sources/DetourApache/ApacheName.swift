/// The directive and section names detour reads, matched without case as Apache does. Every
/// other name is nil: kept in the store, read by nobody.
enum ApacheName: UInt8, Sendable, CaseIterable {
    // Read while the files are read.
    case define, undefine, serverroot, loadmodule, include, includeoptional, options, allowoverride, listen
    case ifmodule, ifdefine, ifversion, ifdirective, iffile, ifsection
    // Read by the model.
    case errordocument, documentroot, servername, alias, aliasmatch
    case redirect, redirectmatch, redirectpermanent, redirecttemp
    case proxypass, proxypassmatch, proxyerroroverride
    case sethandler, addhandler, rewriteengine, rewriterule, rewritecond
    case setenv, setenvif, setenvifnocase, require, authtype
    case virtualhost, location, locationmatch, directory, `if`, elseif, `else`
    case requireall, requireany, requirenone

    /// Sections decided while reading (`<IfModule>` …): what they hold is kept or dropped, the
    /// section itself is not kept.
    var isConditional: Bool {
        switch self {
        case .ifmodule, .ifdefine, .ifversion, .ifdirective, .iffile, .ifsection: true
        default: false
        }
    }

    /// The directives the model reads; the others' words are never made into strings.
    var isFollowedByModel: Bool {
        switch self {
        case .errordocument, .documentroot, .servername, .alias, .aliasmatch, .redirect, .redirectmatch, .redirectpermanent, .redirecttemp,
            .proxypass, .proxypassmatch,
            .proxyerroroverride, .setenv, .setenvif, .setenvifnocase, .require, .authtype, .sethandler, .addhandler, .rewriteengine, .rewriterule,
            .rewritecond:
            true
        default: false
        }
    }

    /// `<RequireAll>` and its kin group Require lines for the section around them.
    var isRequireGroup: Bool { self == .requireall || self == .requireany || self == .requirenone }

    /// The name spelt by `bytes` in any case; nil for a name detour does not read. No string
    /// is made: a configuration has a name on every line.
    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count < Self.byLength.count else { return nil }
        for (spelling, name) in Self.byLength[bytes.count] where zip(spelling, bytes).allSatisfy({ $0 == ($1 | 0x20) }) {
            self = name
            return
        }
        return nil
    }

    /// The lowercase spellings, indexed by length. `| 0x20` lowercases an ASCII letter and
    /// maps no other byte onto one.
    private static let byLength: [[([UInt8], ApacheName)]] = {
        let spellings = allCases.map { (Array(String(describing: $0).utf8), $0) }
        let longest = spellings.map(\.0.count).max() ?? 0
        return (0...longest).map { length in spellings.filter { $0.0.count == length } }
    }()
}
