/// The formats and languages already negotiated for `Accept` and `Accept-Language` values, on
/// one event loop: visitors' browsers send few distinct values, and each is weighed once rather
/// than on every request. Bounded, as the values are the clients' to choose: when a table is
/// full it starts over.
final class NegotiationCache {
    private var formats: [String: String] = [:]
    private var languages: [String: String] = [:]
    static let limit = 512

    func format(accept: String, _ negotiate: (String) -> String) -> String {
        Self.remembered(&formats, accept, negotiate)
    }

    func language(acceptLanguage: String, _ negotiate: (String) -> String) -> String {
        Self.remembered(&languages, acceptLanguage, negotiate)
    }

    private static func remembered(_ table: inout [String: String], _ key: String, _ negotiate: (String) -> String) -> String {
        if let known = table[key] { return known }
        let value = negotiate(key)
        if table.count >= limit { table.removeAll(keepingCapacity: true) }
        table[key] = value
        return value
    }
}
