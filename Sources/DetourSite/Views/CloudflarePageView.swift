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
            TemplateFields([
                "type": type, "title": title, "lead": lead, "token": token, "status": status, "showsRayID": showsRayID, "helpURL": helpURL,
                "rayIDToken": "::RAY_ID::",
            ]).templateData
        }
    }

    var site: SiteView
    var page: Page
    var t: [String: String]

    var templateData: TemplateData {
        TemplateFields(["site": site, "page": page, "t": t, "pageHeader": PageHeader(title: page.title)]).templateData
    }
}
