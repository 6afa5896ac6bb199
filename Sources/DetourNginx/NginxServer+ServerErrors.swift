/// Whether a server can answer a 5xx at all. One that only redirects, refuses or serves files
/// never does: its 5xx pages are never needed.
extension NginxServer {
    /// True when something in this server hands requests on (`proxy_pass`, `fastcgi_pass`,
    /// `memcached_pass`, …), limits them (`limit_req`, `limit_conn`: 503), asks an auth service
    /// (`auth_request`: 500 when it fails), returns a 5xx itself, or uses a directive from a
    /// module outside nginx itself (Lua, Perl, njs, Passenger: content handlers that may fail).
    /// Worked out once, on first use (`mayAnswerServerError`).
    func findServerErrorSource() -> Bool {
        if scope.limit != nil || scope.authRequest != nil { return true }
        if allLocations.contains(where: { $0.upstreamPass != nil || $0.scope.limit != nil || $0.scope.authRequest != nil }) { return true }
        return Self.anyServerErrorSource(in: directive)
    }

    /// Whether requests in `location` can meet a 5xx nginx raises there: it (or a block in it)
    /// hands them on, limits them, asks an auth service or returns one, or the server does
    /// so for every location.
    func mayAnswerServerError(in location: NginxLocation) -> Bool {
        if location.upstreamPass != nil || location.scope.limit != nil || location.scope.authRequest != nil { return true }
        return mayAnswerServerErrorEverywhere || Self.anyServerErrorSource(in: location.directive)
    }

    /// Whether something at the server's own level (outside its locations) can answer a 5xx
    /// to any request: a limit, an auth service, a `return 5xx`, a handler.
    var mayAnswerServerErrorEverywhere: Bool {
        scope.limit != nil || scope.authRequest != nil || Self.anyServerErrorSource(in: directive, locations: false)
    }

    private static let passSuffix = Array("_pass".utf8)

    /// `locations`: whether the `location` blocks inside count.
    private static func anyServerErrorSource(in block: NginxDirective, locations: Bool = true) -> Bool {
        let table = NginxDirectiveTable.shared
        for child in block.children where locations || child.kind != .location {
            if child.kind == .return, let code = child.firstValue.flatMap({ Int($0) }), code >= 500 { return true }
            if child.kind == nil {
                let handsOn = child.withNameBytes { name in
                    if name.count > passSuffix.count, name[(name.count - passSuffix.count)...].elementsEqual(passSuffix) { return true }
                    guard let id = table.nameID(name) else { return true }
                    return !table.isBuiltin(id)
                }
                if handsOn { return true }
            }
            if child.isBlock, child.kind?.holdsEntries != true, anyServerErrorSource(in: child) { return true }
        }
        return false
    }
}
