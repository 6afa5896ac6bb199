/// A page Cloudflare shows instead of the site's (Custom Pages), by its API identifier: the box
/// Cloudflare fills in (its token, which the page must carry exactly once) and what the page
/// says around it. Cloudflare fetches the page from a public URL and inlines what it refers to.
public enum CloudflarePage: String, CaseIterable, Sendable {
    /// 520–530: the origin did not answer Cloudflare as it should.
    case serverErrors = "500_errors"
    /// 1000–1999: the zone's own setup (DNS, a Worker, a banned host) stopped the request.
    case cloudflareErrors = "1000_errors"
    case rateLimitBlock = "ratelimit_block"
    case wafBlock = "waf_block"
    case ipBlock = "ip_block"
    case countryChallenge = "country_challenge"
    case managedChallenge = "managed_challenge"
    /// I'm Under Attack Mode's non-interactive (JavaScript) challenge.
    case underAttack = "under_attack"

    /// Cloudflare refuses to publish the page without it; nil for the block pages, which have none.
    public var token: String? {
        switch self {
        case .serverErrors: "::CLOUDFLARE_ERROR_500S_BOX::"
        case .cloudflareErrors: "::CLOUDFLARE_ERROR_1000S_BOX::"
        case .countryChallenge, .managedChallenge: "::CAPTCHA_BOX::"
        case .underAttack: "::IM_UNDER_ATTACK_BOX::"
        case .rateLimitBlock, .wafBlock, .ipBlock: nil
        }
    }

    /// The status Cloudflare sends the page with; nil for 5xx and 1xxx pages, whose box names it.
    public var status: Int? {
        switch self {
        case .serverErrors, .cloudflareErrors: nil
        case .rateLimitBlock: 429
        case .wafBlock, .ipBlock, .countryChallenge, .managedChallenge, .underAttack: 403
        }
    }

    /// The UI strings of its heading and of the text above the box.
    var titleKey: String {
        switch self {
        case .serverErrors: "cf_server_errors_title"
        case .cloudflareErrors: "cf_cloudflare_errors_title"
        case .rateLimitBlock: "cf_rate_limit_title"
        case .wafBlock: "cf_waf_block_title"
        case .ipBlock: "cf_ip_block_title"
        case .countryChallenge, .managedChallenge, .underAttack: "cf_challenge_title"
        }
    }

    var leadKey: String {
        switch self {
        case .serverErrors: "cf_server_errors_lead"
        case .cloudflareErrors: "cf_cloudflare_errors_lead"
        case .rateLimitBlock: "cf_rate_limit_lead"
        case .wafBlock: "cf_waf_block_lead"
        case .ipBlock: "cf_ip_block_lead"
        case .countryChallenge, .managedChallenge: "cf_challenge_lead"
        case .underAttack: "cf_under_attack_lead"
        }
    }

    /// Largest page accepted, in bytes: Cloudflare takes up to 1.5 MB for a Custom Page, but
    /// only 10 KB as a custom error rule's inline HTML; within 10 KB, a page serves as either.
    public static let budget = 10 * 1024

    /// Cloudflare's challenges break on a page that sets its own referrer policy.
    static let forbiddenMarkup = #"<meta name="referrer""#
}
