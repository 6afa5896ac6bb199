/// The field's abbreviations and the words they stand for (`k8s`, `kubernetes`): the browser
/// looks a query's word up under the others of its set too, so a page that writes one is found
/// by all. The same in every language: these are the trade's words, not a language's.
public enum SearchAbbreviations {
    static let sets: [[String]] = [
        ["db", "database"], ["k8s", "kubernetes"], ["lb", "elb", "alb", "balancer"], ["cf", "cloudflare"], ["ssl", "tls"],
        ["ws", "websocket"], ["cert", "certificate"], ["conn", "connection"], ["auth", "authentication"], ["svc", "service"],
        ["oom", "memory"], ["httpd", "apache"], ["waf", "firewall"], ["denied", "forbidden"],
        ["dns", "resolver"],
    ]

    /// Abbreviations that stand for their word only inside an identifier: `limit-req-status-code`
    /// is `limit-request-status-code`, but a question's `request` is not nginx's `limit_req`.
    static let pieceSets: [[String]] = [["req", "request"]]

    /// Each word of a set with the others, as the entry's `syn` carries them; a word of a
    /// piece set under `-word`, which the browser reads for an identifier's pieces only.
    public static var table: [(word: String, others: [String])] {
        func pairs(_ sets: [[String]], prefix: String) -> [(word: String, others: [String])] {
            sets.flatMap { set in set.map { word in (prefix + word, set.filter { $0 != word }) } }
        }
        return (pairs(sets, prefix: "") + pairs(pieceSets, prefix: "-")).sorted { $0.word < $1.word }
    }
}
