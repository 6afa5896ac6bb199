## Webserver should respond here
 backend default {
 	.host = "127.0.0.1";
 	.port = "8080";
 }