import DetourTemplates

/// One of Cloudflare's pages (`CloudflarePage`) in one language: what it says around the box
/// Cloudflare fills in, and the token that stands for the box.
struct CloudflarePageView: TemplateValue {
    struct Page: TemplateValue {
        /// Cloudflare's identifier of the page type (`500_errors`).
        var type: String
        var title: String
        var lead: String
        var token: String?
        var status: Int?
        /// The Ray ID line, for pages whose box does not show it already.
        var showsRayID: Bool
        var helpURL: String

        var templateData: TemplateData {
            TemplateFields().with("type", type).with("title", title).with("lead", lead).with("token", token).with("status", status)
                .with("showsRayID", showsRayID).with("helpURL", helpURL).with("rayIDToken", "::RAY_ID::").templateData
        }
    }

    var site: SiteView
    var page: Page
    var t: [String: String]

    var templateData: TemplateData {
        TemplateFields().with("site", site).with("page", page).with("t", t).with("pageHeader", PageHeader(title: page.title)).templateData
    }
}
