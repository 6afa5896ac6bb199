import DetourDiagnostics

/// The global options Caddy 2.6 takes, and the options of its `servers` block, as the
/// Caddyfile adapter of v2.6.2 registers them (`RegisterGlobalOption` and the `switch` of
/// caddyconfig/httpcaddyfile/serveroptions.go; `scripts/caddy-options/derive.sh` lists them
/// from a clone of Caddy). `CaddyGlobalOptionsTests` asks the installed `caddy adapt` again.
/// Options that came later (`trusted_proxies` 2.6.3, `client_ip_headers` …) are refused by
/// 2.6: a Caddyfile written for a newer Caddy fails to load there.
enum CaddyGlobalOptions {
    static let known: Set<String> = [
        "acme_ca", "acme_ca_root", "acme_dns", "acme_eab", "admin", "auto_https", "cert_issuer", "debug", "default_bind", "default_sni", "email", "events",
        "grace_period", "http_port", "https_port", "key_type", "local_certs", "log", "ocsp_interval", "ocsp_stapling", "on_demand_tls", "order", "pki",
        "preferred_chains", "renew_interval", "servers", "shutdown_delay", "skip_install_trust", "storage", "storage_clean_interval",
    ]

    static let serversOptions: Set<String> = [
        "listener_wrappers", "timeouts", "keepalive_interval", "max_header_size", "log_credentials", "protocols", "strict_sni_host", "metrics", "protocol",
    ]

    /// What Caddy 2.6 refuses in the global options block: an option it does not know, one in
    /// a `servers` block, a word the `log` block does not take, or an `order` for a directive it does not have (a plugin's). Later versions are not judged: their lists are not detour's.
    static func check(_ config: CaddyConfig) -> [Diagnostic] {
        guard let block = config.blocks.first, block.isGlobalOptions else { return [] }
        var found: [Diagnostic] = []
        for segment in block.segments {
            guard let name = segment.first else { continue }
            guard known.contains(name.text) else {
                found.append(error("unrecognized global option: \(name.text)", at: name, config))
                continue
            }
            // `order NAME before|after OTHER`: Caddy looks NAME up among the directives first.
            if name.text == "order", segment.count > 1, !CaddyDirectives.known.contains(segment[1].text),
                !config.version.version.directives.contains(segment[1].text)
            {
                found.append(error("parsing caddyfile tokens for 'order': \(segment[1].text) is not a registered directive", at: segment[1], config))
                continue
            }
            // The global `log` reads its block as a site's `log` does.
            if name.text == "log" {
                for (word, message) in CaddySubdirectiveTable.shared.refusals(of: CaddyLine(segment)) {
                    found.append(error("parsing caddyfile tokens for 'log': Error during parsing: \(message)", at: word, config))
                }
            }
            guard name.text == "servers" else { continue }
            for line in CaddyDirectiveCheck.block(inside: segment).lines {
                guard let option = line.first, !serversOptions.contains(option.text) else { continue }
                found.append(
                    error("parsing caddyfile tokens for 'servers': Error during parsing: unrecognized servers option '\(option.text)'", at: option, config))
            }
        }
        // The version (`caddy version`, a process) is asked only once an option is not 2.6's.
        return found.isEmpty || config.version.version != .debian ? [] : found
    }

    private static func error(_ message: String, at token: CaddyToken, _ config: CaddyConfig) -> Diagnostic {
        .error(CaddyRules.directive.id, message, at: token.location(in: config.files), notes: [config.version.note])
    }
}
