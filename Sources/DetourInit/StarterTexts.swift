/// The starter's own files: the site configuration and two articles that show how one is written.
enum StarterTexts {
    static let siteConfig = """
        # The brand on every error page and help page. Replace these with your own.
        # Required: the brand's name.
        name: Example Hosting
        # Required: where the help site is published (absolute http(s) URL, with its path). Error pages
        # link to <base_url>codes/<status>/. `detour build --base-url URL` replaces it for staging.
        base_url: https://help.example.com/
        # An SVG file inside content/, at most 4 KiB, with no script and nothing external: it is
        # inlined into every page (an error page may make no request of its own).
        logo: logo.svg
        # Colours as hex, for light and dark mode. A colour under 4.5:1 contrast with its background
        # (WCAG AA) is a warning.
        colors:
          light:
            background: "#ffffff"
            text: "#1d232b"
            accent: "#0a5bd3"
            muted: "#5b6570"
          dark:
            background: "#14181d"
            text: "#e7ebf0"
            accent: "#6ea8ff"
            muted: "#9aa4ae"
        # How visitors reach you; each part is optional.
        support:
          email: support@example.com
          url: https://example.com/support
          # phone: +1 555 0100
        # Your status page, linked from every error page.
        status_page: https://status.example.com/
        # Footer of the help site's pages.
        footer: "© Example Hosting"
        # Footer of the error pages, which the proxy serves while the application is unavailable.
        error_footer: "© Example Hosting · This page was served by our proxy while the application behind it was unavailable."
        # Error pages are built in every language listed, the default first; their words live in
        # translations/<language>.yml, and the server snippets pick one from Accept-Language.
        languages: [en, de, fr, es, ja]
        # Where public/ is installed on the proxy host; the snippets point there.
        # install_path: /usr/share/detour
        # The URL path the snippets serve the error pages under (not /errors/, which applications use).
        # error_path: /detour-errors/
        # true: error pages of codes with a retry_after re-check their address and reload once the
        # site answers (a small inline script, the only one on any page).
        auto_retry: false
        # Seconds a page cached by Varnish may still be served after it expired while the
        # backend fails (its grace); unset, Varnish's own default stands.
        # stale_if_error: 21600
        # false leaves out the pages of detour's rules (rules/), which findings of check and build link.
        # rule_pages: true
        # true lets raw HTML in Markdown through; off, it is dropped.
        raw_html: false
        # true makes straight quotes curly and -- a dash, as cmark-gfm --smart; off, as on GitHub.
        smart_punctuation: false

        """

    static let visitorArticle = """
        ---
        # Shown as the page's heading, in lists and in search results.
        title: Seeing one of our error pages?
        # One sentence, under the title in lists.
        summary: What a 5xx page means for you, and what helps while we fix it.
        # The codes this article explains: it is listed on their pages.
        codes: [500, 502, 503, 504]
        tags: [visitors]
        # visitor, operator or developer.
        audience: visitor
        # The date of the last factual review.
        updated: 2026-01-01
        ---

        An error page with a 5xx code means the fault is on our side, not yours: the request reached
        us, and the application behind our proxy could not answer it in time or at all.

        ## What you can try

        - Wait a minute and reload: most of these clear by themselves. The
          [502 page](/codes/502/) and the [503 page](/codes/503/) say more about each code.
        - Check our status page for an incident.
        - If only you see it, try a private window: an oversized cookie can cause it too.

        ## What to tell us

        Each error page shows a request ID. Quote it when you write to support: it finds your
        request in our logs. Operators can read [what the logs say](../operations/application-not-answering.md#what-the-logs-say).

        """

    static let operatorArticle = """
        ---
        title: The application behind the proxy is not answering
        summary: The proxy reached for the application and found nothing listening, so visitors got 502 or 503.
        codes: [502, 503]
        tags: [operations, nginx, caddy]
        audience: operator
        updated: 2026-01-01
        # Lines from the proxies' error logs: `detour diagnose` sends them to this article.
        # Numbers, addresses and paths in a pattern stand for any.
        log_patterns:
          - "connect() failed (111: Connection refused) while connecting to upstream"
          - "dial tcp 127.0.0.1:8080: connect: connection refused"
        confirm: "ss -lnpt 'sport = :{port}'"
        ---

        The proxy opened a connection to the application's address and nothing was listening there:
        the application is stopped, still starting, or listening on another port.

        ## What the logs say

        - **nginx** answers 502 and logs `connect() failed (111: Connection refused) while
          connecting to upstream`.
        - **Caddy** answers 502 and logs `dial tcp …: connect: connection refused`.

        Run `detour diagnose /var/log/nginx/error.log` to count these lines and find this article.

        ## What to do

        1. Check that the application runs, and on the address the proxy names.
        2. Restart it, then reload the page.

        What visitors can do meanwhile is in [this article](../visitors/seeing-an-error-page.md).

        """
}
