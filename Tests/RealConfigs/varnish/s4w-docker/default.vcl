vcl 4.1;

backend default {
  .host = "tileserv";
  .port = "7800";
}
