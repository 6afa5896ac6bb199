# Run by the tests with /fixture/ read as this folder and FIXTURE_UPSTREAM as the backend's port.
vcl 4.1;

import std;

backend default {
    .host = "127.0.0.1";
    .port = "FIXTURE_UPSTREAM";
}

sub vcl_backend_response {
    if (beresp.status >= 500) {
        return (error(beresp.status));
    }
}

sub vcl_backend_error {
    set beresp.body = std.fileread("/fixture/pages/errors/" + beresp.status + ".html");
    set beresp.uncacheable = true;
    return (deliver);
}

sub vcl_recv {
    # Exports stream straight from the application, past the cache and its error pages.
    if (req.url ~ "^/exports/") {
        return (pipe);
    }
}

sub vcl_synth {
    if (resp.status >= 500) {
        set resp.body = std.fileread("/fixture/pages/errors/" + resp.status + ".html");
        return (deliver);
    }
}
