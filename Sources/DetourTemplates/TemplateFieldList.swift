/// An object's fields as a list of pairs, found by comparing keys: the typed page views make
/// thousands of small objects per page, a handful of fields each, and a dictionary hashes
/// every key to hold it. Its keys are unique.
public struct TemplateFieldList: Sendable {
    private var pairs: [(key: String, value: TemplateData)] = []

    public init() {}

    public subscript(key: String) -> TemplateData? {
        for pair in pairs where pair.key == key { return pair.value }
        return nil
    }

    /// Adds `value` under `key`, which the list must not hold yet.
    public mutating func append(_ key: String, _ value: TemplateData) {
        pairs.append((key, value))
    }

    /// These fields with `other`'s added; a key both have keeps this one's value.
    public func adding(_ other: TemplateFieldList) -> TemplateFieldList {
        var fields = self
        fields.pairs.reserveCapacity(pairs.count + other.pairs.count)
        for pair in other.pairs where self[pair.key] == nil { fields.pairs.append(pair) }
        return fields
    }

    /// The same fields as a dictionary, for what reads objects whole (`sorted`, swift-mustache).
    public var dictionary: [String: TemplateData] {
        Dictionary(pairs, uniquingKeysWith: { first, _ in first })
    }
}
