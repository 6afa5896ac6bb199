import DetourDiagnostics
import DetourProxyCore

/// One `apache.*` rule: its findings on the whole configuration.
protocol ApacheRule: ProxyRule {
    func check(_ model: ApacheModel, in context: ApacheCheckContext) -> [Diagnostic]
}

extension ApacheRule {
    /// Calls `body` with each site and its ErrorDocuments for a local path (with the paths
    /// they name), each site read once: a site's scope is large to copy.
    func forEachSite(_ model: ApacheModel, _ body: (ApacheScope, ArraySlice<ApacheModel.LocalDocument>) -> Void) {
        let sites = model.sites
        let documents = model.localDocuments
        var start = 0
        while start < documents.count {
            let site = documents[start].site
            var end = start
            while end < documents.count, documents[end].site == site { end += 1 }
            body(sites[site], documents[start..<end])
            start = end
        }
    }
}
