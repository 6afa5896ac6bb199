vcl 4.1;

backend default {
    .host = "localhost";
    .port = "8443";
}
