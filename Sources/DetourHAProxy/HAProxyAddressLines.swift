/// The addresses HAProxy 2.6 reads while it reads the file, each with the forms its keyword
/// takes (the options each caller of str2sa_range() passes: cfgparse.c, cfgparse-listen.c,
/// log.c, server.c, check.c, tcpcheck.c, resolvers.c) and HAProxy's words around the refusal.
enum HAProxyAddressLines {
    private typealias Accepts = HAProxyAddress.Accepts

    /// `usesrc` words that are no address.
    private static func isClientSource(_ word: String) -> Bool {
        word == "client" || word == "clientip" || word.hasPrefix("hdr_ip(")
    }

    /// HAProxy's refusal of an address on `line`, in a section of kind `kind` named `name`,
    /// and the word it is about. `unixPrefix`: the global `unix-bind prefix`'s length (nil: not
    /// known).
    static func refusal(
        of line: HAProxyLine, kind: String, name: String?, unixPrefix: Int?, hasQUIC: () -> Bool? = { nil }, environment: [String: String]
    ) -> (
        word: HAProxyWord, message: String
    )? {
        let words = line.words
        func judge(_ index: Int, _ accepts: Accepts, _ context: (String) -> String) -> (word: HAProxyWord, message: String)? {
            guard index < words.count,
                let refusal = HAProxyAddress.refusal(words[index].text, accepts: accepts, hasQUIC: hasQUIC, environment: environment)
            else { return nil }
            return (words[index], context(refusal))
        }
        // Asked only by the keywords that need it: most lines are none of them.
        var proxy: Bool { HAProxyKeyword.of(kind)?.opensProxy == true }
        switch line.knownKeyword {
        case .bind where kind == "frontend" || kind == "listen":
            // Each of a list's addresses in turn (str2listener()).
            guard words.count > 1 else { return nil }
            for address in words[1].text.split(separator: ",") {
                if let refusal = HAProxyAddress.refusal(
                    String(address), accepts: [.port, .portRequired, .portRange, .socketDescriptor, .stream], unixPrefix: unixPrefix,
                    hasQUIC: hasQUIC, environment: environment)
                {
                    return (words[1], "'bind' : \(refusal)")
                }
            }
            return nil
        case .log:
            // After its other arguments (HAProxyLogLine); `stdout` and `stderr` are fd@1 and fd@2.
            guard words.count >= 3, words[1].text != "global", !words[1].text.hasPrefix("ring@") else { return nil }
            let aliases = ["stdout": "fd@1", "stderr": "fd@2"]
            guard
                let refusal = HAProxyAddress.refusal(
                    aliases[words[1].text] ?? words[1].text, accepts: [.port, .rawDescriptor, .datagram, .stream, .datagramByDefault],
                    hasQUIC: hasQUIC, environment: environment)
            else { return nil }
            return (words[1], "log : \(refusal)")
        case .source where proxy:
            if let refusal = judge(1, [.port, .stream], { "'source \(words[1].text)' : \($0)" }) { return refusal }
            guard words.count > 3, words[2].text == "usesrc", !isClientSource(words[3].text) else { return nil }
            return judge(3, [.port, .stream]) { "'usesrc \(words[3].text)' : \($0)" }
        case .dispatch where kind == "backend" || kind == "listen":
            return judge(1, [.port, .portRequired, .stream]) { "'dispatch' : \($0)" }
        case .server where kind == "backend" || kind == "listen":
            guard words.count > 2 else { return nil }
            // Written only for a refusal: most servers have none.
            let context = { "'server \(name ?? "")/\(words[1].text)' : " }
            if let refusal = judge(2, [.port, .portOffset, .stream], { context() + $0 }) { return refusal }
            return serverOption(words, from: 3, context: context, hasQUIC: hasQUIC, environment: environment)
        case .defaultServer where proxy:
            return serverOption(words, from: 1, context: { "" }, hasQUIC: hasQUIC, environment: environment)
        case .tcpCheck, .httpCheck:
            guard words.count > 2, words[1].text == "connect", let addr = words.firstIndex(where: { $0.text == "addr" }) else { return nil }
            return judge(addr + 1, [.port, .stream]) { "'\(line.keyword) connect' : 'addr' : \($0)" }
        case .nameserver where kind == "resolvers":
            guard words.count > 2 else { return nil }
            return judge(2, [.port, .portRequired, .datagram, .stream, .datagramByDefault]) { "'nameserver \(words[1].text)' : \($0)" }
        case .mailer where kind == "mailers":
            guard words.count > 2 else { return nil }
            return judge(2, [.port, .portRequired, .stream, .internetOnly]) { "'mailer \(words[1].text)' : \($0)" }
        default:
            return nil
        }
    }

    /// The addresses of a server's options (`source`, `usesrc`, `socks4`, `addr`), in order.
    private static func serverOption(
        _ words: [HAProxyWord], from start: Int, context: () -> String, hasQUIC: () -> Bool?, environment: [String: String]
    ) -> (
        word: HAProxyWord, message: String
    )? {
        var index = start
        while index + 1 < words.count {
            let option = words[index].text
            let value = words[index + 1]
            let accepts: Accepts?
            switch words[index] {
            case "source": accepts = [.port, .portRange, .stream]
            case "usesrc": accepts = isClientSource(value.text) ? nil : [.port, .stream]
            case "socks4": accepts = [.port, .portRequired, .stream]
            case "addr": accepts = [.port, .stream]
            default: accepts = nil
            }
            if let accepts, let refusal = HAProxyAddress.refusal(value.text, accepts: accepts, hasQUIC: hasQUIC, environment: environment) {
                let what = option == "addr" ? "'addr'" : "'\(option) \(value.text)'"
                return (value, "\(context())\(what) : \(refusal)")
            }
            index += accepts == nil ? 1 : 2
        }
        return nil
    }
}
