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
    if (req.url ~ "^/closed") {
        return (synth(503, "Closed"));
    }
}

# Sets a header for some origins only: either way the answer is the same.
sub cors {
    if (req.http.Origin ~ "^https://shop\.test$") {
        set resp.http.Access-Control-Allow-Origin = req.http.Origin;
    }
}

sub vcl_synth {
    call cors;
    return (deliver);
}
