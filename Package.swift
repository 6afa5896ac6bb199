// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "detour",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "detour", targets: ["detour"]),
        .executable(name: "detour-synth", targets: ["detour-synth"]),
        .executable(name: "detour-backend", targets: ["detour-backend"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.0.0"),
        // `detour serve` only; swift-configuration support is not needed.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0", traits: []),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.0"),
        // `detour verify` only: probes over TLS, and the sandbox's throwaway certificate.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.0"..<"5.0.0"),
        // Tests only: random sequences of edits for the incremental build.
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // Support: what every module may use and that uses none of ours. File bytes, directory
        // walking, glob(3), the parallel map, "did you mean", escaping for JSON, scripts and HTML.
        .target(name: "DetourSupport"),
        // Findings: a located diagnostic, rule descriptions, and the text, JSON and SARIF reports.
        .target(name: "DetourDiagnostics", dependencies: ["DetourSupport"]),
        // C parts: libcmark (the Markdown parser) as a system library; renameat2(RENAME_EXCHANGE),
        // which Glibc's Swift overlay does not export, and nftw, which needs a C callback.
        .systemLibrary(
            name: "CCMark",
            pkgConfig: "libcmark",
            providers: [.apt(["libcmark-dev"])]
        ),
        .target(name: "CFileSystem"),
        // mallopt, which Glibc's Swift overlay does not export: large blocks mapped on their own.
        .target(name: "CMemory"),
        // Log diagnosis: error-log lines read in constant memory, matched to the articles'
        // log_patterns, and the shapes of lines nothing explains.
        .target(name: "DetourLogs"),
        // The URL layout: every output path and link of a build (SiteLayout), the error pages'
        // output formats (OutputFormat), and slugs.
        .target(name: "DetourLayout", dependencies: ["DetourSupport"]),
        // Text and YAML files read with every problem located: a file's UTF-8 text, YAML parsed
        // into typed fields (FieldReader), Markdown in block scalars put back where it is written.
        .target(name: "DetourYAML", dependencies: ["DetourSupport", "DetourDiagnostics", "Yams"]),
        // Languages: language tags, the UI strings' catalogue, the translation files read, and the
        // one lookup that falls back to the default language.
        .target(name: "DetourLanguages", dependencies: ["DetourSupport", "DetourDiagnostics", "DetourYAML"]),
        // Content: site.yml, codes, translations and articles read with located errors, Markdown
        // rendered by libcmark, links and references checked.
        .target(
            name: "DetourContent",
            dependencies: ["DetourSupport", "DetourDiagnostics", "DetourYAML", "DetourLayout", "DetourLanguages", "DetourLogs", "CCMark", "Yams"]
        ),
        // Mustache compiled for rendering: typed values, one output buffer (swift-mustache checks
        // the syntax and renders what this does not compile).
        .target(name: "DetourTemplates", dependencies: ["DetourSupport"]),
        // The help site's search index, written by the build; its reader is templates/assets/search.js.
        .target(name: "DetourSearch", dependencies: ["DetourSupport"]),
        // The build: templates (the built-in theme is the repository's templates/, embedded by the
        // EmbedTheme plugin), output formats, page and snippet models, the staged atomic output.
        .target(
            name: "DetourSite",
            dependencies: [
                "DetourSupport", "DetourYAML", "DetourLayout", "DetourLanguages", "DetourContent", "DetourDiagnostics", "DetourSearch", "CFileSystem",
                "DetourCodeBlockCheck", "DetourTemplates", "DetourLogs", "DetourRules",
                .product(name: "Mustache", package: "swift-mustache"), .product(name: "Crypto", package: "swift-crypto"),
            ],
            plugins: ["EmbedTheme"]
        ),
        .executableTarget(name: "detour-embed"),
        .plugin(name: "EmbedTheme", capability: .buildTool(), dependencies: ["detour-embed"]),
        .plugin(name: "EmbedStarter", capability: .buildTool(), dependencies: ["detour-embed"]),
        .plugin(name: "EmbedNginxDirectives", capability: .buildTool(), dependencies: ["detour-embed"]),
        .plugin(name: "EmbedVarnishVCL", capability: .buildTool(), dependencies: ["detour-embed"]),
        .plugin(name: "EmbedRuleExamples", capability: .buildTool(), dependencies: ["detour-embed"]),
        // The version, from VERSION: `detour --version`, reports, the Debian package, manual pages.
        .plugin(name: "EmbedVersion", capability: .buildTool(), dependencies: ["detour-embed"]),
        // `detour init`: the starter project, its codes and translations embedded from content/.
        .target(name: "DetourInit", plugins: ["EmbedStarter"]),
        // What every server's check shares: the dialect protocol, options and --map, the pages
        // folder, the neutral site model with the checks decided on it, coverage, the flat store
        // of byte spans, and the driver that checks sites on every core while reading goes on.
        .target(name: "DetourProxyCore", dependencies: ["DetourSupport", "DetourDiagnostics"]),
        // One module per server: its reader (lexer, parser, includes), its model of the sites,
        // and its rules (Rules/, one per file).
        .target(
            name: "DetourNginx", dependencies: ["DetourSupport", "DetourProxyCore", "DetourDiagnostics"],
            exclude: ["Directives/nginx-directives.tsv"], plugins: ["EmbedNginxDirectives"]
        ),
        .target(name: "DetourCaddy", dependencies: ["DetourSupport", "DetourProxyCore", "DetourDiagnostics"]),
        .target(name: "DetourHAProxy", dependencies: ["DetourSupport", "DetourProxyCore", "DetourDiagnostics"]),
        .target(name: "DetourApache", dependencies: ["DetourSupport", "DetourProxyCore", "DetourDiagnostics"]),
        // Varnish's VCL as varnishd 7.1 compiles it (its variables, methods and built-in VCL
        // probed from varnishd and embedded by the EmbedVarnishVCL plugin), followed to the pages.
        .target(
            name: "DetourVarnish", dependencies: ["DetourSupport", "DetourProxyCore", "DetourDiagnostics"],
            exclude: ["VCL/varnish-vcl.tsv", "VCL/builtin.vcl"], plugins: ["EmbedVarnishVCL"]
        ),
        // Configuration quoted in articles, read by each server's own checker.
        .target(
            name: "DetourCodeBlockCheck",
            dependencies: [
                "DetourSupport", "DetourDiagnostics", "DetourContent", "DetourProxyCore", "DetourNginx", "DetourCaddy", "DetourHAProxy", "DetourApache",
                "DetourVarnish",
            ]
        ),
        // Every rule's documentation: the servers' and the content's catalogues, each rule's hit
        // and near miss embedded from the tests' fixtures (EmbedRuleExamples), the text
        // `--explain` prints and the rule pages show, and the help links of findings.
        .target(
            name: "DetourRules",
            dependencies: [
                "DetourSupport", "DetourDiagnostics", "DetourLayout", "DetourProxyCore", "DetourNginx", "DetourCaddy", "DetourHAProxy", "DetourApache",
                "DetourVarnish", "DetourCodeBlockCheck", "DetourLogs",
            ],
            plugins: ["EmbedRuleExamples"]
        ),
        // `detour serve`: the preview server, the only target that knows Hummingbird.
        .target(
            name: "DetourServe",
            dependencies: [
                "DetourSupport", "DetourLayout", "DetourSite", "DetourContent", "DetourDiagnostics",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // `detour backend`: a built site's error pages as an HTTP service for ingress controllers
        // and proxies that forward a failed request's status; answers from memory on plain SwiftNIO.
        .target(
            name: "DetourBackend",
            dependencies: [
                "DetourSupport", "DetourLayout",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
            ]
        ),
        // `detour verify`: the real server run on a sandboxed copy of a configuration, with a fake
        // upstream, probed and judged; the one runtime engine.
        .target(
            name: "DetourVerify",
            dependencies: [
                "DetourSupport", "DetourDiagnostics", "DetourProxyCore", "DetourNginx", "DetourCaddy", "DetourHAProxy", "DetourApache", "DetourVarnish",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // The command line: one file per subcommand.
        .executableTarget(
            name: "detour",
            dependencies: [
                "DetourSupport", "DetourSite", "DetourServe", "DetourInit", "DetourContent", "DetourDiagnostics",
                "DetourProxyCore", "DetourNginx", "DetourCaddy", "DetourHAProxy", "DetourApache", "DetourVarnish", "DetourLogs", "DetourVerify", "DetourRules",
                "DetourBackend", "CMemory",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            plugins: ["EmbedVersion"]
        ),
        // `detour backend` alone, for the container image: none of the build, checkers or site.
        .executableTarget(name: "detour-backend", dependencies: ["DetourBackend"]),
        // Writes synthetic knowledge bases for `make bench` and the interrupted-build test.
        .executableTarget(name: "detour-synth"),
        .target(
            name: "DetourTestSupport", dependencies: ["DetourDiagnostics", "DetourProxyCore", "DetourVerify"], path: "Tests/DetourTestSupport",
            exclude: ["BrowserConsole"]),
        .testTarget(name: "DetourDiagnosticsTests", dependencies: ["DetourDiagnostics"]),
        .testTarget(name: "DetourSupportTests", dependencies: ["DetourSupport"]),
        .testTarget(name: "DetourSearchTests", dependencies: ["DetourSearch", "DetourTestSupport"]),
        .testTarget(
            name: "DetourTemplatesTests", dependencies: ["DetourTemplates", "DetourTestSupport", .product(name: "Mustache", package: "swift-mustache")]),
        .testTarget(
            name: "DetourContentTests",
            dependencies: ["DetourContent", "DetourDiagnostics", "DetourLayout", "DetourSupport", "DetourYAML", "DetourTestSupport"],
            exclude: ["GitHubMarkdown/RealDocuments"]),
        .testTarget(
            name: "DetourSiteTests",
            dependencies: ["DetourSite", "DetourLanguages", "DetourTestSupport", .product(name: "PropertyBased", package: "swift-property-based")],
            exclude: ["Fixtures"]),
        .testTarget(name: "DetourLogsTests", dependencies: ["DetourLogs", "DetourTestSupport"]),
        .testTarget(name: "DetourProxyCoreTests", dependencies: ["DetourProxyCore"]),
        .testTarget(
            name: "DetourCaddyTests", dependencies: ["DetourCaddy", "DetourProxyCore", "DetourTestSupport", "DetourVerify"],
            exclude: ["Fixtures", "Oracle/caddy-vocabulary.txt"]),
        .testTarget(
            name: "DetourHAProxyTests", dependencies: ["DetourHAProxy", "DetourProxyCore", "DetourSupport", "DetourTestSupport", "DetourVerify"],
            exclude: ["Fixtures", "Oracle/haproxy-vocabulary.txt"]),
        .testTarget(
            name: "DetourApacheTests", dependencies: ["DetourApache", "DetourProxyCore", "DetourTestSupport", "DetourVerify"],
            exclude: ["Fixtures", "Oracle/apache-vocabulary.txt"]),
        .testTarget(
            name: "DetourNginxTests", dependencies: ["DetourNginx", "DetourProxyCore", "DetourTestSupport", "DetourVerify"],
            exclude: ["Fixtures", "Oracle/nginx-vocabulary.txt"]),
        .testTarget(
            name: "DetourVarnishTests", dependencies: ["DetourVarnish", "DetourProxyCore", "DetourTestSupport", "DetourVerify"],
            exclude: ["Fixtures", "Oracle/varnish-vocabulary.txt"]),
        .testTarget(name: "DetourServeTests", dependencies: ["DetourServe"]),
        .testTarget(name: "DetourVerifyTests", dependencies: ["DetourVerify", "DetourTestSupport"]),
        .testTarget(
            name: "DetourCLITests",
            dependencies: ["DetourCodeBlockCheck", "DetourContent", "DetourLogs", "DetourRules", "DetourSearch", "DetourSite", "DetourTestSupport"],
            exclude: ["HTTP2Peer", "Kubernetes", "SARIF", "SearchProbe", "SearchRelevance", "TLSPeer"]),
    ]
)
