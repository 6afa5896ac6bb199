import Foundation

/// The words error pages are made of besides each code's own texts, in English: the theme's
/// catalogue of keys. A translation file names the same keys; a key missing there falls back
/// to the default language, a key not listed here is reported as unknown.
/// `{status}`, `{title}`, `{seconds}` are filled in per page.
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
