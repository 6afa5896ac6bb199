// #ddev-generated

backend ezplatform {
    .host = "web"; //
    .port = "80";
}

acl invalidators {
    "127.0.0.1";
    "0.0.0.0"/0;
}

acl debuggers {
    "127.0.0.1";
    "0.0.0.0"/0;
}