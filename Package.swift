// swift-tools-version:6.0
import PackageDescription

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
]

let package = Package(
    name: "HotStrings",
    products: [
        .library(name: "StringsFormat", targets: ["StringsFormat"]),
        .library(name: "HotStringsClient", targets: ["HotStringsClient"]),
        // With the log sink an embedding app gives (`EmbeddedOptions.log`).
        .library(name: "HotStringsEmbedded", targets: ["HotStringsEmbedded", "HotStringsLog"]),
        .executable(name: "hotstrings", targets: ["hotstrings"]),
    ],
    targets: [
        .target(name: "StringsFormat", swiftSettings: strict),
        .target(name: "CLinuxShims"),
        .target(name: "LinuxSystem", dependencies: ["CLinuxShims"], swiftSettings: strict),
        // The log sink the libraries write through, given by the app (the command line's writes standard error).
        .target(name: "HotStringsLog", dependencies: ["LinuxSystem", "StringsFormat"], swiftSettings: strict),
        // The wire protocol; a reload's change kind is the store's own word (`BundleChanges.ChangeKind`).
        .target(name: "HotStringsProtocol", dependencies: ["BundleChanges", "StringsFormat"], swiftSettings: strict),
        .target(
            name: "HotStringsClient", dependencies: ["HotStringsProtocol", "LinuxSystem", "StringsFormat"],
            swiftSettings: strict
        ),
        // The protocol's ops, subscriptions and fan-out, once, for the daemon and embedded mode.
        .target(
            name: "HotStringsService",
            dependencies: [
                "HotStringsProtocol", "StringsStore", "BundleWatcher", "BundleChanges", "StringsFormat", "LinuxSystem",
                "HotStringsRelease", "HotStringsLint", "HotStringsLog",
            ],
            swiftSettings: strict
        ),
        // The epoll I/O loop that fronts a service host: the Unix socket's clients and the page's HTTP, for the
        // daemon and for embedded mode's page.
        .target(
            name: "HotStringsFront",
            dependencies: ["HotStringsProtocol", "LinuxSystem", "StringsFormat", "HotStringsService", "HotStringsLog"],
            swiftSettings: strict
        ),
        .target(
            name: "HotStringsServer",
            dependencies: [
                "HotStringsProtocol", "LinuxSystem", "StringsStore", "BundleWatcher", "BundleChanges", "StringsFormat",
                "HotStringsService", "HotStringsRelease", "HotStringsFront", "HotStringsLog",
            ],
            swiftSettings: strict
        ),
        // The words the watcher and the store share: a table's identity, an update, a batch, a resync's reason.
        .target(name: "BundleChanges", dependencies: ["StringsFormat"], swiftSettings: strict),
        // The checks `lint` makes, used by the CLI (which prints them) and the service (the page's `lint`).
        .target(
            name: "HotStringsLint", dependencies: ["BundleChanges", "StringsFormat", "LinuxSystem"], swiftSettings: strict
        ),
        .target(name: "StringsStore", dependencies: ["BundleChanges", "StringsFormat"], swiftSettings: strict),
        .target(
            name: "HotStringsEmbedded",
            dependencies: [
                "HotStringsClient", "HotStringsProtocol", "BundleWatcher", "BundleChanges", "StringsStore",
                "HotStringsService", "StringsFormat", "LinuxSystem", "HotStringsRelease", "HotStringsFront",
                "HotStringsLog",
            ],
            swiftSettings: strict
        ),
        // Releases over the air: SHA-256, SHA-512 and Ed25519, manifests, publishing, pulling over HTTP, verified atomic installs.
        .target(
            name: "HotStringsRelease", dependencies: ["BundleChanges", "StringsFormat", "LinuxSystem"],
            swiftSettings: strict
        ),
        .target(
            name: "BundleWatcher", dependencies: ["BundleChanges", "LinuxSystem", "StringsFormat"],
            swiftSettings: strict
        ),
        .target(
            name: "HotStringsCLI",
            dependencies: [
                "StringsFormat", "StringsStore", "BundleWatcher", "BundleChanges", "LinuxSystem", "HotStringsProtocol",
                "HotStringsServer", "HotStringsFront", "HotStringsClient", "HotStringsService", "HotStringsRelease",
                "HotStringsLint", "HotStringsLog",
            ],
            swiftSettings: strict
        ),
        .executableTarget(name: "hotstrings", dependencies: ["HotStringsCLI"], swiftSettings: strict),
        .executableTarget(
            name: "hotstrings-bench",
            dependencies: [
                "StringsFormat", "StringsStore", "BundleWatcher", "BundleChanges", "LinuxSystem", "HotStringsClient",
                "HotStringsService", "HotStringsRelease",
                // The daemon launcher the tests use.
                "HotStringsTestSupport",
            ],
            swiftSettings: strict
        ),
        // Test helpers that several test targets and the benchmark share: the built `hotstrings` binary, the daemon
        // launcher, the sample bundle, waits with deadlines. A regular target, because a test target cannot depend
        // on another; it does not import Testing, so the benchmark can link it.
        .target(
            name: "HotStringsTestSupport", dependencies: ["LinuxSystem", "StringsFormat"],
            path: "Tests/HotStringsTestSupport",
            swiftSettings: strict
        ),
        // The conditions tests run under, as Testing traits (the built binary, the shared corpus): the one target
        // of shared test code that imports Testing, so the benchmark does not link it.
        .target(
            name: "HotStringsTestTraits", dependencies: ["HotStringsTestSupport"], path: "Tests/HotStringsTestTraits",
            swiftSettings: strict
        ),
        // A stand-in for a test process that starts a daemon and is then killed with SIGKILL: the test that no child
        // of a test outlives it (ChildLifetimeTests).
        // An example: an HTTP server rendering each request in its Accept-Language from one snapshot (docs/SERVER.md).
        .executableTarget(
            name: "greeting-server", dependencies: ["HotStringsClient", "HotStringsEmbedded"],
            path: "examples/greeting-server", swiftSettings: strict
        ),
        .executableTarget(
            name: "hotstrings-test-parent", dependencies: ["HotStringsTestSupport"], path: "Tests/TestParent",
            swiftSettings: strict
        ),
        // An app embedding HotStrings whose standard error a test reads: the libraries log only to the sink it gives
        // (EmbeddedLogTests).
        .executableTarget(
            name: "hotstrings-embedded-log-probe",
            dependencies: ["HotStringsClient", "HotStringsEmbedded", "HotStringsLog", "HotStringsTestSupport"],
            path: "Tests/EmbeddedLogProbe", swiftSettings: strict
        ),
        .testTarget(
            name: "StringsFormatTests",
            dependencies: ["StringsFormat", "HotStringsTestSupport", "HotStringsTestTraits"],
            resources: [.copy("Fixtures")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LinuxSystemTests", dependencies: ["LinuxSystem", "HotStringsTestSupport"], swiftSettings: strict
        ),
        .testTarget(name: "HotStringsLogTests", dependencies: ["HotStringsLog", "StringsFormat"], swiftSettings: strict),
        .testTarget(
            name: "HotStringsProtocolTests", dependencies: ["HotStringsProtocol", "StringsFormat"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "HotStringsClientTests",
            dependencies: [
                "HotStringsClient", "HotStringsProtocol", "BundleChanges", "LinuxSystem", "StringsFormat",
                "HotStringsTestSupport", "HotStringsTestTraits",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "HotStringsServerTests",
            dependencies: [
                "HotStringsServer", "HotStringsProtocol", "LinuxSystem", "StringsStore", "BundleChanges",
                "StringsFormat", "HotStringsTestSupport", "HotStringsTestTraits",
                "HotStringsService", "HotStringsEmbedded", "HotStringsClient",  // LineClient wraps its LineConnection
            ],
            swiftSettings: strict
        ),
        // The I/O loop in memory: its connection state machine, and the loop over fake sockets and a fake poller.
        .testTarget(
            name: "HotStringsFrontTests", dependencies: ["HotStringsFront", "HotStringsService", "HotStringsLog", "LinuxSystem"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "HotStringsEmbeddedTests",
            dependencies: [
                "HotStringsEmbedded", "HotStringsClient", "HotStringsTestSupport", "HotStringsRelease", "LinuxSystem",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "HotStringsServiceTests",
            dependencies: [
                "HotStringsService", "HotStringsEmbedded", "HotStringsClient", "HotStringsProtocol", "StringsStore",
                "StringsFormat", "BundleWatcher", "BundleChanges", "LinuxSystem", "HotStringsTestSupport",
                "HotStringsRelease", "HotStringsLint",  // BundleNameUsersTests: every user of the naming rule
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "HotStringsReleaseTests",
            dependencies: [
                "HotStringsRelease", "StringsFormat", "LinuxSystem", "HotStringsTestSupport", "HotStringsTestTraits",
            ],
            exclude: ["Fixtures"],  // signature test vectors, read from the source tree
            swiftSettings: strict
        ),
        .testTarget(
            name: "StringsStoreTests", dependencies: ["StringsStore", "BundleChanges", "StringsFormat"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "BundleWatcherTests",
            dependencies: [
                "BundleWatcher", "BundleChanges", "LinuxSystem", "StringsFormat", "StringsStore",
                "HotStringsTestSupport",
            ],
            swiftSettings: strict
        ),
        // The linter's findings, on the linter itself (the CLI's tests keep how `lint` prints them).
        .testTarget(
            name: "HotStringsLintTests",
            dependencies: ["HotStringsLint", "StringsFormat", "HotStringsTestSupport", "HotStringsTestTraits"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "HotStringsCLITests",
            dependencies: [
                "HotStringsCLI", "HotStringsLint", "StringsFormat", "HotStringsTestSupport", "HotStringsTestTraits",
            ],
            swiftSettings: strict
        ),
    ]
)
