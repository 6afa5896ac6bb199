# Error pages for Tiny & Co <test>, made by detour, for Varnish 7.1 and later.
# Include it in your VCL after `vcl 4.1;` and your backends, before your own subroutines:
#     include "/etc/varnish/detour.vcl";
# with detour's public/errors/ installed as /usr/share/detour/errors/.
# Varnish joins every definition of a built-in subroutine (vcl_backend_response,
# vcl_backend_error, vcl_synth) in the order they appear, so the parts below run before
# yours. Where they return, yours does not run for that response: for the error statuses
# listed here and for failed background fetches. Move a part of yours that must run first
# above the include line.

import std;

sub vcl_backend_response {
    # A failed refresh of a page served from grace: the stale copy stays.
    if (beresp.status >= 500 && bereq.is_bgfetch) {
        return (abandon);
    }
    # A page the proxy behind made (its snippet names it in X-Detour-Page): passed on as it
    # is, with that layer's reference, and never cached.
    if (beresp.status >= 400 && beresp.http.X-Detour-Page) {
        set beresp.ttl = 1s;
        set beresp.uncacheable = true;
        return (deliver);
    }
    # The backend's own server errors: replaced with the page for that code, status kept.
    if (beresp.status == 503) {
        return (error(beresp.status));
    }
    # Any other server error is passed on, never kept in the cache.
    if (beresp.status >= 500) {
        set beresp.ttl = 1s;
        set beresp.uncacheable = true;
        return (deliver);
    }
}

sub vcl_backend_error {
    if (bereq.is_bgfetch) {
        return (abandon);
    }
    if (beresp.status == 503) {
        call detour_backend_page;
        return (deliver);
    }
}

sub vcl_synth {
    if (resp.status == 503) {
        call detour_client_page;
        return (deliver);
    }
}

# A page made on the backend side: no backend answered, or its own error above.
sub detour_backend_page {
    # The first language of the site that the visitor's Accept-Language lists.
    set bereq.http.X-Detour-Language = "en-GB";
    # Problem JSON for API clients, plain text for terminals, else HTML.
    set bereq.http.X-Detour-Format = "html";
    set beresp.http.Content-Type = "text/html; charset=utf-8";
    if (bereq.http.Accept ~ {"(?i)^\s*application/(problem\+)?json"}) {
        set bereq.http.X-Detour-Format = "json";
        set beresp.http.Content-Type = "application/problem+json";
    }
    if (bereq.http.Accept ~ {"(?i)^\s*text/plain"}) {
        set bereq.http.X-Detour-Format = "txt";
        set beresp.http.Content-Type = "text/plain; charset=utf-8";
    }
    # The transaction's ID, on the HTML page and in X-Request-ID: varnishlog -q 'vxid == ID'.
    set beresp.body = regsub(
        std.fileread("/usr/share/detour/errors/" + bereq.http.X-Detour-Language + "/" + beresp.status + "." + bereq.http.X-Detour-Format),
        {"<!--#echo var="UNIQUE_ID" -->"}, bereq.xid);
    set beresp.http.X-Request-ID = bereq.xid;
    set beresp.http.Cache-Control = "no-store";
    set beresp.http.X-Detour-Page = "varnish";
    set beresp.http.Vary = "Accept, Accept-Language";
    unset beresp.http.Retry-After;
    if (beresp.status == 503) {
        set beresp.http.Retry-After = "120";
    }
    # Never cached: each visitor gets the page in their own language and format.
    set beresp.ttl = 1s;
    set beresp.grace = 0s;
    set beresp.uncacheable = true;
}

# A page made on the client side: return (synth(...)) in VCL, or a fetch abandoned.
sub detour_client_page {
    set req.http.X-Detour-Language = "en-GB";
    set req.http.X-Detour-Format = "html";
    set resp.http.Content-Type = "text/html; charset=utf-8";
    if (req.http.Accept ~ {"(?i)^\s*application/(problem\+)?json"}) {
        set req.http.X-Detour-Format = "json";
        set resp.http.Content-Type = "application/problem+json";
    }
    if (req.http.Accept ~ {"(?i)^\s*text/plain"}) {
        set req.http.X-Detour-Format = "txt";
        set resp.http.Content-Type = "text/plain; charset=utf-8";
    }
    set resp.body = regsub(
        std.fileread("/usr/share/detour/errors/" + req.http.X-Detour-Language + "/" + resp.status + "." + req.http.X-Detour-Format),
        {"<!--#echo var="UNIQUE_ID" -->"}, req.xid);
    set resp.http.X-Request-ID = req.xid;
    set resp.http.Cache-Control = "no-store";
    set resp.http.X-Detour-Page = "varnish";
    set resp.http.Vary = "Accept, Accept-Language";
    unset resp.http.Retry-After;
    if (resp.status == 503) {
        set resp.http.Retry-After = "120";
    }
}
