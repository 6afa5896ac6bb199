/// The kind of block a directive stands in, as nginx tells them apart when it decides whether
/// a directive is allowed there. Raw values are the names the directive table uses.
enum NginxContext: String, CaseIterable, Sendable {
    case main, events, http, server, location
    case ifInServer = "if-in-server"
    case ifInLocation = "if-in-location"
    case limitExcept = "limit_except"
    case upstream
    case mail
    case mailServer = "mail-server"
    case stream
    case streamServer = "stream-server"
    case streamUpstream = "stream-upstream"
    case rtmp
    case rtmpServer = "rtmp-server"
    case rtmpApplication = "rtmp-application"

    /// The context inside a block `name` opened here; nil when its contents are not
    /// directives (`map`, `types`, a Lua body) or are unknown to nginx's core.
    /// The context inside block `directive` written here; a name detour knows is read without
    /// making a string.
    func inside(_ directive: NginxDirective) -> NginxContext? {
        if let kind = directive.kind { return inside(kind.rawValue) }
        return self == .main || self == .rtmpServer ? inside(directive.name) : nil
    }

    func inside(_ name: String) -> NginxContext? {
        switch (self, name) {
        case (.main, "events"): .events
        case (.main, "http"): .http
        case (.main, "mail"): .mail
        case (.main, "stream"): .stream
        case (.main, "rtmp"): .rtmp
        case (.http, "server"): .server
        case (.http, "upstream"): .upstream
        case (.server, "location"), (.location, "location"): .location
        case (.server, "if"): .ifInServer
        case (.location, "if"), (.ifInLocation, "if"): .ifInLocation
        case (.location, "limit_except"): .limitExcept
        case (.mail, "server"): .mailServer
        case (.stream, "server"): .streamServer
        case (.stream, "upstream"): .streamUpstream
        case (.rtmp, "server"): .rtmpServer
        case (.rtmpServer, "application"): .rtmpApplication
        default: nil
        }
    }

    /// This context's bit in a set of them.
    var bit: UInt32 {
        switch self {
        case .main: 1 << 0
        case .events: 1 << 1
        case .http: 1 << 2
        case .server: 1 << 3
        case .location: 1 << 4
        case .ifInServer: 1 << 5
        case .ifInLocation: 1 << 6
        case .limitExcept: 1 << 7
        case .upstream: 1 << 8
        case .mail: 1 << 9
        case .mailServer: 1 << 10
        case .stream: 1 << 11
        case .streamServer: 1 << 12
        case .streamUpstream: 1 << 13
        case .rtmp: 1 << 14
        case .rtmpServer: 1 << 15
        case .rtmpApplication: 1 << 16
        }
    }
}
