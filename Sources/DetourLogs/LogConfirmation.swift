/// The command an article gives to confirm its cause on the operator's machine: one for any
/// server (`ss -lnptx | grep php-fpm`), or one per server (`nginx: nginx -t`, `apache:
/// apache2ctl configtest`). `{upstream}`, `{host}` and `{port}` in it stand for what the log's
/// lines name.
public struct LogConfirmation: Sendable, Equatable {
    public struct Command: Sendable, Equatable {
        /// The server it is for; nil for any.
        public var server: String?
        public var text: String

        public init(server: String?, text: String) {
            self.server = server
            self.text = text
        }
    }

    /// The servers a command may be written for.
    public static let servers = ["nginx", "apache", "caddy", "haproxy", "varnish", "php-fpm", "gunicorn", "uwsgi"]
    /// What `{name}` may stand for: the upstream or socket the lines name most (without a
    /// scheme: `127.0.0.1:8080`, `/run/php/php8.2-fpm.sock`), its host and its port.
    public static let placeholders = ["upstream", "host", "port"]

    public var commands: [Command]

    /// How a page names `server`, one of `servers`.
    public static func name(_ server: String) -> String {
        ["apache": "Apache", "caddy": "Caddy", "haproxy": "HAProxy", "varnish": "Varnish", "php-fpm": "PHP-FPM", "uwsgi": "uWSGI"][server] ?? server
    }

    public init(_ commands: [Command] = []) {
        self.commands = commands
    }

    /// The command for lines most of which are of `format`: the one for their server (nginx's,
    /// Apache's, Caddy's JSON), else the first for a server the line's shape does not name
    /// (HAProxy, PHP-FPM, Varnish, …), else the first.
    func command(for format: LogFormat) -> String? {
        let server: String? =
            switch format {
            case .nginx: "nginx"
            case .apache: "apache"
            case .json: "caddy"
            case .other: nil
            }
        let named = ["nginx", "apache", "caddy"]
        return
            (commands.first { $0.server == nil || $0.server == server }
            ?? (server == nil ? commands.first { !named.contains($0.server ?? "") } : nil) ?? commands.first)?.text
    }

    /// `command` with its placeholders filled from the first of `upstreams` (as `LogUpstream`
    /// names them, the most lines first) that is an address or a socket; what none fills is
    /// left as `<upstream>`, `<host>`, `<port>`.
    public static func filled(_ command: String, upstreams: [String]) -> String {
        let found = upstreams.lazy.compactMap(address).first
        return
            command
            .replacingOccurrences(of: "{upstream}", with: found?.upstream ?? "<upstream>")
            .replacingOccurrences(of: "{host}", with: found?.host ?? "<host>")
            .replacingOccurrences(of: "{port}", with: found?.port ?? "<port>")
    }

    /// The command as a page shows it, its placeholders as `<upstream>`, `<host>`, `<port>`.
    public static func shown(_ command: String) -> String { filled(command, upstreams: []) }

    /// `{name}`s in `command` that are no placeholder; `%{…}` (curl's `-w`) and `${…}` (the
    /// shell's) are not placeholders at all.
    public static func unknownPlaceholders(in command: String) -> [String] {
        var unknown: [String] = []
        var rest = Substring(command)
        while let open = rest.firstIndex(of: "{") {
            let before = open > rest.startIndex ? rest[rest.index(before: open)] : " "
            rest = rest[rest.index(after: open)...]
            guard before != "%", before != "$", let close = rest.firstIndex(of: "}") else { continue }
            let name = rest[..<close]
            if !name.isEmpty, name.allSatisfy({ $0.isLetter || $0 == "_" || $0 == "-" }), !placeholders.contains(String(name)) {
                unknown.append(String(name))
            }
        }
        return unknown
    }

    /// `127.0.0.1:8080` and its port from nginx's `http://127.0.0.1:8080`, a socket's path from
    /// `fastcgi://unix:/run/php.sock`; nil for HAProxy's `backend/server`, which is no address.
    static func address(_ upstream: String) -> (upstream: String, host: String?, port: String?)? {
        var value = Substring(upstream)
        var scheme = ""
        if let separator = value.range(of: "://") {
            scheme = String(value[..<separator.lowerBound])
            value = value[separator.upperBound...]
        }
        if value.hasPrefix("unix:") { value = value.dropFirst(5) }
        if value.hasPrefix("(") && value.hasSuffix(")") { value = value.dropFirst().dropLast() }
        guard !value.isEmpty else { return nil }
        if value.hasPrefix("/") { return (String(value), nil, nil) }
        guard !value.contains("/") else { return nil }
        if let colon = value.lastIndex(of: ":"), colon < value.index(before: value.endIndex),
            value[value.index(after: colon)...].allSatisfy(\.isNumber)
        {
            let host = value[..<colon].trimmingPrefix("[")
            return (String(value), String(host.hasSuffix("]") ? host.dropLast() : host), String(value[value.index(after: colon)...]))
        }
        return (String(value), String(value), ["http": "80", "https": "443"][scheme])
    }
}
