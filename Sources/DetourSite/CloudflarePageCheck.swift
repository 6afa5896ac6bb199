import DetourDiagnostics

/// What Cloudflare refuses or breaks on in a page of its own: the box's token missing or
/// repeated, a page over the size Cloudflare takes inline, a referrer policy of the page's own.
/// Each names the page; the fix is in the template.
enum CloudflarePageCheck {
    static func problem(in text: String, of page: CloudflarePage, path: String, template: SourceLocation) -> Diagnostic? {
        if let token = page.token {
            let count = text.components(separatedBy: token).count - 1
            if count != 1 {
                let found = count == 0 ? "does not carry" : "carries \(count) times"
                return .error(
                    "cloudflare.token-count",
                    "\(path) \(found) the token \(token), and Cloudflare publishes a \(page.rawValue) page only with it exactly once", at: template)
            }
        }
        if text.utf8.count > CloudflarePage.budget {
            return .error(
                "cloudflare.page-too-large",
                "\(path) is \(text.utf8.count) bytes, over \(CloudflarePage.budget): Cloudflare takes at most 10 KB of HTML in a custom error rule",
                at: template)
        }
        if text.contains(CloudflarePage.forbiddenMarkup) {
            return .error(
                "cloudflare.referrer-meta", "\(path) sets a referrer policy (<meta name=\"referrer\">), which breaks Cloudflare's challenges", at: template)
        }
        return nil
    }
}
