/// The results page as Chromium left it: each result's markup, in order.
enum SearchResultsMarkup {
    static func results(_ dom: String) -> [String] {
        guard let start = dom.range(of: "id=\"search-results\""), let end = dom.range(of: "id=\"search-browse\"", range: start.upperBound..<dom.endIndex)
        else { return [] }
        return dom[start.upperBound..<end.lowerBound].components(separatedBy: "<li>").dropFirst().map { String($0.prefix { $0 != "\n" }) }
    }
}
