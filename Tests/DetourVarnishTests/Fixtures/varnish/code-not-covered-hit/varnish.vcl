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
    # Only a header (which the built-in VCL, run after, sets again): the body stays Varnish's page.
    set beresp.http.Retry-After = "30";
}
