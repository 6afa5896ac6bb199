# Ban commands (flush cache) only allowed from
acl ban {
	"127.0.0.1";
}