/// What `detour diagnose --format json` prints, as the tests read it.
struct DiagnoseReport: Decodable {
    struct Cause: Decodable {
        var slug: String
        var url: String
        var statuses: [Int]
        var count: Int
        var incidents: Int
        var upstreams: [Upstream]
        var confirm: String?
        var loggedStatuses: [LoggedStatus]
        var lines: [String]

        enum CodingKeys: String, CodingKey {
            case slug, url, statuses, count, incidents, upstreams, confirm, lines
            case loggedStatuses = "logged_statuses"
        }
    }
    struct Upstream: Decodable {
        var upstream: String
        var count: Int
    }
    struct LoggedStatus: Decodable {
        var status: Int
        var count: Int
    }
    struct Unexplained: Decodable {
        var count: Int
    }
    struct Routine: Decodable {
        var count: Int
    }
    var lines: Int
    var causes: [Cause]
    /// Lines no article explains that a server writes as it starts, stops or reads its configuration.
    var routine: Routine
    var unexplained: Unexplained
}
