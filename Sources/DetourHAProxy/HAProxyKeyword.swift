/// The keywords the readers dispatch a line on, found once as the lexer makes the line: a
/// switch over the keyword's text compares it with each case in turn, and a configuration of
/// thousands of backends sends tens of thousands of lines through several such switches.
enum HAProxyKeyword: String, CaseIterable, Sendable {
    // The sections' own lines.
    case global, defaults, frontend, backend, listen, userlist, resolvers, peers, cache, program, ring, mailers, traces
    case httpErrors = "http-errors"
    case fcgiApp = "fcgi-app"
    case logForward = "log-forward"
    // Lines of a section.
    case acl, bind, log, mode, stats, source, dispatch, server, option, no, timeout, nameserver, mailer
    case serverTemplate = "server-template"
    case defaultServer = "default-server"
    case errorfile, errorfiles, errorloc, errorloc302, errorloc303
    case httpRequest = "http-request"
    case httpResponse = "http-response"
    case httpAfterResponse = "http-after-response"
    case httpError = "http-error"
    case tcpRequest = "tcp-request"
    case tcpResponse = "tcp-response"
    case tcpCheck = "tcp-check"
    case httpCheck = "http-check"
    case defaultBackend = "default_backend"
    case useBackend = "use_backend"
    case logFormat = "log-format"
    case logFormatSD = "log-format-sd"
    case errorLogFormat = "error-log-format"
    case uniqueIDFormat = "unique-id-format"
    case luaLoad = "lua-load"
    case luaLoadPerThread = "lua-load-per-thread"
    case unixBind = "unix-bind"
    case sslServerVerify = "ssl-server-verify"
    case externalCheck = "external-check"

    /// A line's first word's keyword; nil for one no reader dispatches on. Never by
    /// `init(rawValue:)`, which compares the text with each case, nor by hashing the text,
    /// which costs more than the one or two comparisons of its bucket.
    static func of(_ word: String) -> HAProxyKeyword? {
        let length = word.utf8.count
        guard length < 32, let first = word.utf8.first else { return nil }
        return buckets[bucket(length: length, first: first)].first { $0.rawValue == word }
    }

    /// The keywords by length and first byte.
    private static let buckets: [[HAProxyKeyword]] = allCases.reduce(into: Array(repeating: [], count: 32 * 32)) { buckets, keyword in
        buckets[bucket(length: keyword.rawValue.utf8.count, first: keyword.rawValue.utf8.first!)].append(keyword)
    }

    private static func bucket(length: Int, first: UInt8) -> Int { length << 5 | Int(first & 31) }

    /// A keyword that opens a section.
    var opensSection: Bool {
        switch self {
        case .global, .defaults, .frontend, .backend, .listen, .userlist, .resolvers, .peers, .cache, .program, .ring, .mailers, .traces,
            .httpErrors, .fcgiApp, .logForward:
            true
        default: false
        }
    }

    /// A section that makes a proxy, whose line takes a name and `from <defaults>`.
    var opensProxy: Bool { self == .defaults || self == .frontend || self == .backend || self == .listen }
}
