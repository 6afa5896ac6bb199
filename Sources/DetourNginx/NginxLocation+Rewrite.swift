import Foundation

/// What a location's own `rewrite` lines do to a request, as far as its path alone tells.
extension NginxLocation {
    /// The URI the first of the location's `rewrite` lines whose expression matches `path`
    /// writes: its captures (`$1`…`$9`), `$uri` and `$request_uri` filled in, cut at the query
    /// or at the first variable left; with the line's flag. nil where none matches.
    func rewrite(of path: String) -> (uri: String, flag: String?)? {
        for line in directive.children where line.kind == .rewrite && line.argumentCount >= 2 {
            let values = line.values
            guard let regex = NginxRegex.compile(values[0]), let match = regex.firstMatch(in: path, range: NSRange(path.startIndex..., in: path)) else {
                continue
            }
            var written = values[1].replacingOccurrences(of: "$request_uri", with: path).replacingOccurrences(of: "$uri", with: path)
            for group in (1...9).reversed() where group < match.numberOfRanges {
                let captured = Range(match.range(at: group), in: path).map { String(path[$0]) } ?? ""
                written = written.replacingOccurrences(of: "$\(group)", with: captured)
            }
            return (String(written.prefix { $0 != "$" && $0 != "?" }), values.count > 2 ? values[2] : nil)
        }
        return nil
    }

    /// The URI nginx searches the locations again for after the location's `rewrite` of
    /// `path` (`last`, or no flag): nil where none matches, it stays (`break`) or redirects.
    func rewrittenSearch(of path: String) -> String? {
        guard let (uri, flag) = rewrite(of: path), flag == nil || flag == "last", uri.hasPrefix("/"), uri != path else { return nil }
        return uri
    }
}

extension NginxServer {
    /// The location nginx settles on for `path`, and the URI it has then: the one it picks,
    /// after the location searches its `rewrite` lines start again (a front controller's
    /// `rewrite ^/(.*)$ /app/$1 last`; at most 10, as nginx allows). Not past a `return`.
    func searchedLocation(for path: String) -> (path: String, location: NginxLocation)? {
        guard var location = location(for: path) else { return nil }
        var path = path
        for _ in 0..<10 {
            guard location.returnDirective == nil, let next = location.rewrittenSearch(of: path), let found = self.location(for: next), found !== location
            else { break }
            (path, location) = (next, found)
        }
        return (path, location)
    }
}
