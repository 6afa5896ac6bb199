import Foundation

/// The words error pages and help pages are made of besides each code's own texts, in English: the theme's
/// catalogue of keys. A translation file names the same keys; a key missing there falls back
/// to the default language, a key not listed here is reported as unknown.
/// `{status}`, `{title}`, `{seconds}`, `{site}` are filled in per page.
public enum UIStrings {
    public static let english: [String: String] = [
        "error": "Error {status}",
        "try_again": "Try again",
        "retry_after": "It is usually worth trying again in about {seconds} seconds.",
        "retrying": "This page checks again by itself and reloads when the site is back.",
        "help_link": "What error {status} means",
        "status_page": "Service status",
        "support": "Still stuck?",
        "write_to": "Write to",
        "contact_support": "Contact support",
        "call": "Call",
        "reference": "Reference",
        "advice_heading": "What you can do",
        // The help site's own words; `{site}` is the site's name.
        "home_title": "{site} help",
        "home_lead": "Seeing an error page? Pick the status you saw, or browse the troubleshooting articles.",
        "home_description": "Help with errors on {site}: what each status means and how to fix it.",
        "error_codes": "Error codes",
        "articles": "Troubleshooting articles",
        "topics": "Topics",
        "http_status": "HTTP status {status}",
        "for_operators": "For site operators",
        "related_articles": "Related articles",
        "sent_by": "Sent by:",
        "formerly": "Formerly:",
        "preview_error_page": "Preview the {status} error page",
        "on_this_page": "On this page",
        "log_lines": "Log lines you may see",
        "confirm": "The command that confirms it",
        "last_reviewed": "Last reviewed",
        "search_label": "Search the help",
        "search_placeholder": "Search: 502, php-fpm, a log line…",
        "need_a_hand": "Need a hand?",
        "not_translated": "This page has not been translated yet, so you are reading the original.",
        "language": "Language",
        "language_name": "English",
        // Titles of GitHub's alerts (`> [!NOTE]`) in articles.
        "alert_note": "Note",
        "alert_tip": "Tip",
        "alert_important": "Important",
        "alert_warning": "Warning",
        "alert_caution": "Caution",
        // A footnote's link back to where the text references it.
        "footnote_back": "Back to content",
        "for_visitors": "For visitors",
        "for_visitors_lead": "Saw an error on a website? Start here: what it means and what you can try.",
        "operators_lead": "Running the site? Find the cause behind the status, from the log line to the setting.",
        "codes_5xx": "Server errors (5xx)",
        "codes_4xx": "Client errors (4xx)",
        "codes_cdn": "CDN errors (Cloudflare)",
        "codes_nginx": "nginx-only codes",
        "breadcrumb": "Breadcrumb",
        "edit_page": "Edit this page",
        "previous": "Previous",
        "next": "Next",
        "in_this_section": "In this section",
        // Cloudflare's own pages (errors/cloudflare/): the text around the box Cloudflare fills in.
        "cf_server_errors_title": "{site} is not reachable right now",
        "cf_server_errors_lead":
            "Our network could not get a valid answer from the servers behind it. The box below names the error (a code from 520 to"
            + " 530) and the Ray ID; most of these pass within minutes, so please try again shortly.",
        "cf_cloudflare_errors_title": "This request could not be completed",
        "cf_cloudflare_errors_lead":
            "Our network stopped the request because of how the site or its address is set up, not because of anything you did. The box"
            + " below names the error (a code from 1000 to 1999); quote it and the Ray ID when you contact us.",
        "cf_rate_limit_title": "Too many requests",
        "cf_rate_limit_lead": "More requests came from your address in a short time than we accept. Wait a minute, then try again.",
        "cf_waf_block_title": "This request was blocked",
        "cf_waf_block_lead":
            "Our firewall stopped this request because it looked like an attack. If you were doing something"
            + " ordinary, tell us the Ray ID below and we will look into it.",
        "cf_ip_block_title": "Access from your network is blocked",
        "cf_ip_block_lead":
            "This site does not accept requests from your IP address or your country. If you"
            + " think this is a mistake, tell us the Ray ID below.",
        "cf_challenge_title": "Checking that you are a person",
        "cf_challenge_lead": "Before you continue, please complete the check below. It takes a few seconds, and then the page opens by itself.",
        "cf_under_attack_lead":
            "The site is getting unusually many requests and checks each browser before letting it in."
            + " This takes about five seconds and needs nothing from you.",
        "cf_help_link": "Help with this page",
        "cf_ray_id": "Ray ID",
    ]

    public static var keys: [String] { english.keys.sorted() }

    /// `template` with `{name}` placeholders replaced from `values`; unknown ones stay as written.
    public static func fill(_ template: String, _ values: [String: String]) -> String {
        guard template.contains("{") else { return template }
        var result = template
        for (name, value) in values { result = result.replacingOccurrences(of: "{\(name)}", with: value) }
        return result
    }
}
