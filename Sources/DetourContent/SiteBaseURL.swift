import DetourDiagnostics
import DetourYAML
import Foundation

/// Where a project's help site has its rule pages, which findings link from outside a build:
/// its `base_url` (or the address given for it, `detour build --base-url`); nil without a
/// project, with a `site.yml` that does not read clean (whose errors the build reports), or
/// with `rule_pages: false`.
public enum SiteBaseURL {
    public static func forRulePages(contentRoot: URL, publishedAt override: String? = nil) -> String? {
        let url = contentRoot.appendingPathComponent("site.yml")
        guard FileManager.default.fileExists(atPath: url.path), case .success(let file) = SourceFile.read(url, displayPath: "site.yml") else { return nil }
        var diagnostics: [Diagnostic] = []
        guard let site = SiteConfigReader(contentRoot: contentRoot, displayRoot: contentRoot.path).read(file, diagnostics: &diagnostics),
            !diagnostics.hasErrors, site.rulePages
        else { return nil }
        guard let override else { return site.baseURL }
        return override.hasSuffix("/") ? override : override + "/"
    }
}
