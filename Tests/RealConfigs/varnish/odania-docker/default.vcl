vcl 4.0;

backend default {
	.host = "localhost";
	.port = "8080";
}
