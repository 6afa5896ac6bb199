/// Where a request for a file a location does not have goes: the Rails and PHP idioms that
/// serve a file when it is there and hand the request to the application when it is not.
extension NginxServer {
    /// The location `try_files` falls back to from `location` for `path`: a named location, or
    /// a URI's (`/index.php$is_args$args`); nil where it has none or ends in `=code`.
    func tryFilesFallback(of location: NginxLocation, for path: String) -> NginxLocation? {
        guard let fallback = location.tryFiles?.values.last else { return nil }
        if fallback.hasPrefix("@") { return namedLocation(fallback) }
        let uri = String(fallback.prefix { $0 != "$" && $0 != "?" })
        guard uri.hasPrefix("/"), uri != path, let next = self.location(for: uri), next !== location else { return nil }
        return next
    }

    /// The location whose upstream a request for `path` meets in `location` when the file is
    /// missing: where `try_files` falls back to, or the location's own
    /// `if (!-f $request_filename)` (or `!-e`) block that passes it on.
    func missingFileDestination(of location: NginxLocation, for path: String) -> NginxLocation? {
        if let fallback = tryFilesFallback(of: location, for: path) { return fallback.upstreamPass == nil ? nil : fallback }
        return location.children.first { block in
            guard block.match == .condition, block.upstreamPass != nil, let condition = NginxCondition(block.directive) else { return false }
            return condition.words.count == 2 && ["!-f", "!-e"].contains(condition.words[0]) && condition.words[1] == "$request_filename"
        }
    }

    /// The upstream pass a request for `path` meets in `location` when the file is missing.
    func upstreamForMissingFile(in location: NginxLocation, for path: String) -> NginxDirective? {
        missingFileDestination(of: location, for: path)?.upstreamPass?.directive
    }
}
