/// Names from NGINX Plus, the commercial nginx: the open-source nginx calls them unknown, and
/// a configuration written for Plus (vendor examples, blog posts) is the usual reason.
enum NginxPlusOnly {
    static let note = "this is NGINX Plus only; the open-source nginx does not have it"

    static let directives: Set<String> = [
        "api", "health_check", "health_check_timeout", "match", "queue", "state", "sticky", "sticky_cookie_insert",
        "status", "status_format", "status_zone", "zone_sync", "zone_sync_buffers", "zone_sync_connect_retry_interval",
        "zone_sync_connect_timeout", "zone_sync_interval", "zone_sync_recv_buffer_size", "zone_sync_server", "zone_sync_ssl",
        "keyval", "keyval_zone", "ntlm", "auth_jwt", "auth_jwt_claim_set", "auth_jwt_header_set", "auth_jwt_key_file",
        "auth_jwt_key_request", "auth_jwt_leeway", "auth_jwt_require", "auth_jwt_type", "f4f", "f4f_buffer_size", "hls",
        "hls_buffers", "hls_forward_args", "hls_fragment", "hls_mp4_buffer_size", "hls_mp4_max_buffer_size",
        "mp4_limit_rate", "mp4_limit_rate_after", "session_log", "session_log_format", "session_log_zone", "upstream_conf",
    ]

    /// Parameters of an upstream `server` that only Plus takes.
    static let serverParameters: Set<String> = ["resolve", "service", "route", "slow_start", "drain"]
}
