vcl 4.0;
backend default {
    .host = "backend";
    .port = "{BACKEND_PORT}";
}
