// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "detour",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "detour", targets: ["detour"]),
        .executable(name: "detour-synth", targets: ["detour-synth"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.0.0"),
        // `detour serve` only; swift-configuration support is not needed.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0", traits: []),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CCMark",
            pkgConfig: "libcmark",
            providers: [.apt(["libcmark-dev"])]
        ),
        // renameat2(RENAME_EXCHANGE) is not exported by Glibc's Swift overlay; nftw needs a C callback.
        .target(name: "CFileSystem"),
        .target(name: "DetourDiagnostics"),
        .target(
            name: "DetourContent",
            dependencies: ["DetourDiagnostics", "DetourDiagnose", "CCMark", "Yams"]
        ),
        // The help site's search index, written by the build; its reader is templates/assets/search.js.
        .target(name: "DetourSearch", dependencies: ["DetourDiagnostics"]),
        // The built-in theme is the repository's templates/, embedded by the EmbedTheme plugin.
        .target(
            name: "DetourSite",
            dependencies: [
                "DetourContent", "DetourDiagnostics", "DetourSearch", "CFileSystem",
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            plugins: ["EmbedTheme"]
        ),
        .executableTarget(name: "detour-embed"),
        .plugin(name: "EmbedTheme", capability: .buildTool(), dependencies: ["detour-embed"]),
        .plugin(name: "EmbedStarter", capability: .buildTool(), dependencies: ["detour-embed"]),
        // `detour init`: the starter project, its codes and translations embedded from content/.
        .target(name: "DetourInit", plugins: ["EmbedStarter"]),
        // What every server's check shares: options, path maps, the pages folder, coverage.
        .target(name: "DetourDiagnose"),
        .target(name: "DetourProxyCore", dependencies: ["DetourDiagnostics"]),
        .target(name: "DetourNginx", dependencies: ["DetourProxyCore", "DetourDiagnostics"]),
        .target(name: "DetourCaddy", dependencies: ["DetourProxyCore", "DetourDiagnostics"]),
        .target(name: "DetourHAProxy", dependencies: ["DetourProxyCore", "DetourDiagnostics"]),
        .target(name: "DetourApache", dependencies: ["DetourProxyCore", "DetourDiagnostics"]),
        // `detour serve`: the preview server, the only target that knows Hummingbird.
        .target(
            name: "DetourServe",
            dependencies: [
                "DetourSite", "DetourContent", "DetourDiagnostics",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "detour",
            dependencies: [
                "DetourSite", "DetourServe", "DetourInit", "DetourContent", "DetourDiagnostics", "DetourProxyCore", "DetourNginx", "DetourCaddy", "DetourHAProxy", "DetourApache", "DetourDiagnose",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(name: "DetourTestSupport", dependencies: ["DetourDiagnostics"], path: "Tests/DetourTestSupport"),
        // Writes synthetic knowledge bases for `make bench` and the interrupted-build test.
        .executableTarget(name: "detour-synth"),
        .testTarget(name: "DetourDiagnosticsTests", dependencies: ["DetourDiagnostics"]),
        .testTarget(name: "DetourSearchTests", dependencies: ["DetourSearch"]),
        .testTarget(name: "DetourContentTests", dependencies: ["DetourContent", "DetourTestSupport"]),
        .testTarget(name: "DetourSiteTests", dependencies: ["DetourSite", "DetourTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "DetourDiagnoseTests", dependencies: ["DetourDiagnose"]),
        .testTarget(name: "DetourProxyCoreTests", dependencies: ["DetourProxyCore"]),
        .testTarget(name: "DetourCaddyTests", dependencies: ["DetourCaddy", "DetourProxyCore", "DetourTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "DetourHAProxyTests", dependencies: ["DetourHAProxy", "DetourProxyCore", "DetourTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "DetourApacheTests", dependencies: ["DetourApache", "DetourProxyCore", "DetourTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "DetourNginxTests", dependencies: ["DetourNginx", "DetourProxyCore", "DetourTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "DetourServeTests", dependencies: ["DetourServe"]),
        .testTarget(name: "DetourCLITests", dependencies: ["DetourContent", "DetourDiagnose", "DetourSearch", "DetourTestSupport"], exclude: ["SearchProbe"]),
    ]
)
