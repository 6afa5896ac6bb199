acl cache_acl {
    "127.0.0.1";
    # insert additional ip's here
}
