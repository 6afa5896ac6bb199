import DetourSupport

/// An address as HAProxy 2.6 reads it (str2sa_range() in src/tools.c): an optional socket type
/// (`stream+`, `dgram+`) and family (`ipv4@`, `udp@`, `unix@`, `fd@` …), then a host and a port
/// part whose forms each keyword takes or refuses (`Accepts`). What depends on the machine it
/// runs on is not judged: a host name (resolved when HAProxy starts), a listening socket's file
/// descriptor, the protocols the build has.
struct HAProxyAddress {
    /// The PA_O_* options a keyword passes (include/haproxy/tools-t.h).
    struct Accepts: OptionSet, Sendable {
        let rawValue: Int
        /// A port after the last colon (PA_O_PORT_OK).
        static let port = Accepts(rawValue: 1 << 0)
        /// A port is required (PA_O_PORT_MAND): 0 is refused too.
        static let portRequired = Accepts(rawValue: 1 << 1)
        /// `low-high` (PA_O_PORT_RANGE).
        static let portRange = Accepts(rawValue: 1 << 2)
        /// `+N` and `-N`, relative to the client's port (PA_O_PORT_OFS).
        static let portOffset = Accepts(rawValue: 1 << 3)
        /// `fd@N` of a listening socket HAProxy inherits (PA_O_SOCKET_FD).
        static let socketDescriptor = Accepts(rawValue: 1 << 4)
        /// `fd@N` written to as is (PA_O_RAW_FD).
        static let rawDescriptor = Accepts(rawValue: 1 << 5)
        static let stream = Accepts(rawValue: 1 << 6)
        static let datagram = Accepts(rawValue: 1 << 7)
        /// Datagrams unless the address says otherwise (PA_O_DEFAULT_DGRAM).
        static let datagramByDefault = Accepts(rawValue: 1 << 8)
        /// Not str2sa_range()'s: the caller then refuses a path's family (a mailer speaks TCP).
        static let internetOnly = Accepts(rawValue: 1 << 9)
    }

    /// The families' prefixes, each with the socket type it sets (nil: the keyword's default).
    private enum Family { case inet, quic, unix, abstract, descriptor, socketPair }
    private static let prefixes: [(prefix: String, family: Family, datagram: Bool?)] = [
        ("unix@", .unix, nil), ("uxdg@", .unix, true), ("uxst@", .unix, false), ("abns@", .abstract, nil), ("ip@", .inet, nil),
        ("ipv4@", .inet, nil), ("ipv6@", .inet, nil), ("tcp4@", .inet, false), ("udp4@", .inet, true), ("tcp6@", .inet, false),
        ("udp6@", .inet, true), ("tcp@", .inet, false), ("udp@", .inet, true), ("fd@", .descriptor, nil), ("sockpair@", .socketPair, nil),
        // A QUIC listener: a stream over datagrams, whose protocol only a build with QUIC has.
        ("quic4@", .quic, false), ("quic6@", .quic, false),
    ]
    /// sizeof(sun_path) - 1.
    private static let socketPathRoom = 107

    /// HAProxy's words for refusing `written` where `accepts` is what the keyword takes (nil: it
    /// takes it, or only the machine it runs on can tell). `unixPrefix`: the length of the
    /// `unix-bind prefix` a path is joined to (nil: not known, so a path's length is not judged);
    /// `hasQUIC`: whether the build has QUIC (nil: not known), asked only of a QUIC address.
    static func refusal(
        _ written: String, accepts: Accepts, unixPrefix: Int? = 0, hasQUIC: () -> Bool? = { nil }, environment: [String: String]
    ) -> String? {
        // Read as bytes: every server line's address is judged.
        var text = Array(expanded(written, environment).utf8)[...]
        // An empty one (an unset variable) is the environment's to fill.
        guard !text.isEmpty else { return nil }
        var datagram =
            accepts.contains(.datagram) && (!accepts.contains(.stream) || accepts.contains(.datagramByDefault))
        // Every prefix ends in '+' or '@': most addresses have neither, and skip the search.
        let marked = text.contains { $0 == UInt8(ascii: "@") || $0 == UInt8(ascii: "+") }
        if marked, text.starts(with: "stream+".utf8) {
            text = text.dropFirst(7)
            datagram = false
        } else if marked, text.starts(with: "dgram+".utf8) {
            text = text.dropFirst(6)
            datagram = true
        }
        var family = Family.inet
        if marked, let known = prefixes.first(where: { text.starts(with: $0.prefix.utf8) }) {
            text = text.dropFirst(known.prefix.utf8.count)
            family = known.family
            datagram = known.datagram ?? datagram
        } else if text.first == UInt8(ascii: "/") {
            family = .unix
        }
        switch family {
        case .descriptor, .socketPair:
            let descriptor = String(decoding: text, as: UTF8.self)
            guard let number = Int(descriptor), number >= 0 else {
                return "file descriptor '\(descriptor)' is not a valid integer in '\(written)'"
            }
            // What an inherited socket is, only the running HAProxy can tell.
            if family == .socketPair || accepts.contains(.socketDescriptor) { return nil }
            guard accepts.contains(.rawDescriptor) else { return "a file descriptor is not acceptable here in '\(written)'" }
        case .unix, .abstract:
            if let prefix = unixPrefix {
                let room = socketPathRoom - (family == .abstract ? 0 : prefix + 1 + 5 + 1 + 3)
                if text.count > room { return "socket path '\(written)' too long (max \(room))" }
            }
        case .inet, .quic:
            if let refusal = portRefusal(text, accepts: accepts, written: written) { return refusal }
        }
        if !datagram, !accepts.contains(.stream) { return "stream-type address not acceptable in '\(written)'" }
        if datagram, !accepts.contains(.datagram) { return "dgram-type address not acceptable in '\(written)'" }
        if accepts.contains(.internetOnly), family == .unix || family == .abstract { return "TCP not supported for this address family" }
        // protocol_lookup() finds no stream protocol over datagrams without QUIC (AF_INET 2, AF_INET6 10).
        if family == .quic, hasQUIC() == false {
            let number = written.contains("quic6@") ? 10 : 2
            return
                "unsupported stream protocol for datagram family \(number) address '\(written)'; QUIC is not compiled in if this is what you were looking for"
        }
        return nil
    }

    /// The port part's refusal: after the last colon that no closing bracket follows.
    private static func portRefusal(_ text: ArraySlice<UInt8>, accepts: Accepts, written: String) -> String? {
        // HAProxy looks from the end for ':' or ']', down to the second character, and then
        // reads the character it stopped at (the first one, when neither came before).
        guard !text.isEmpty else { return accepts.contains(.portRequired) ? "missing port specification in '\(written)'" : nil }
        var stop = text.endIndex - 1
        while stop > text.startIndex, text[stop] != UInt8(ascii: "]"), text[stop] != UInt8(ascii: ":") { stop -= 1 }
        var port: ArraySlice<UInt8> = []
        if text[stop] == UInt8(ascii: ":") {
            guard accepts.contains(.port) else { return "port specification not permitted here in '\(written)'" }
            port = text[(stop + 1)...]
        } else if accepts.contains(.portRequired) {
            return "missing port specification in '\(written)'"
        }
        let least = accepts.contains(.portRequired) ? 1 : 0
        guard let first = port.first else {
            return accepts.contains(.portRequired) ? "missing port specification in '\(written)'" : nil
        }
        func quoted(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }
        if first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") {
            let dash = port.firstIndex(of: UInt8(ascii: "-"))
            if dash != nil, !accepts.contains(.portRange) { return "port range not permitted here in '\(written)'" }
            let lowText = dash.map { port[..<$0] } ?? port
            let highText = dash.map { port[($0 + 1)...] } ?? port
            let low = leadingNumber(lowText)
            let high = leadingNumber(highText)
            if low < least || low > 65535 { return "invalid port '\(quoted(lowText))'" }
            if high < least || high > 65535 { return "invalid port '\(quoted(highText))'" }
            if low > high { return "invalid port range '\(low)-\(high)'" }
            return nil
        }
        if first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            return accepts.contains(.portOffset) ? nil : "port offset not permitted here in '\(written)'"
        }
        return "invalid character '\(quoted(port).first!)' in port number '\(quoted(port))' in '\(written)'"
    }

    /// atoi(): the leading digits' value (past 65535 it is only ever too large).
    private static func leadingNumber(_ text: ArraySlice<UInt8>) -> Int {
        var value = 0
        for byte in text {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { break }
            value = min(value * 10 + Int(byte - UInt8(ascii: "0")), 1_000_000)
        }
        return value
    }

    /// env_expand(): each `$NAME` and `${NAME}` replaced by its value, empty when it is not set.
    static func expanded(_ text: String, _ environment: [String: String]) -> String {
        guard ByteSearch.contains(UInt8(ascii: "$"), in: text) else { return text }
        var result = ""
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            result += rest[..<dollar]
            var name = rest[rest.index(after: dollar)...]
            let braced = name.first == "{"
            if braced { name = name.dropFirst() }
            let end = name.firstIndex { !($0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_")) } ?? name.endIndex
            result += environment[String(name[..<end])] ?? ""
            rest = name[end...]
            if braced, rest.first == "}" { rest = rest.dropFirst() }
        }
        return result + rest
    }
}
