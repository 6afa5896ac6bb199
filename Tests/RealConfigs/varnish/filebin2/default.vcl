vcl 4.1;

backend default {
	.host = "app";
	.port = "8080";
}
