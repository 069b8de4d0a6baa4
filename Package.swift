// swift-tools-version:6.0
import PackageDescription

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
]

let package = Package(
    name: "HotStrings",
    products: [
        .library(name: "StringsFormat", targets: ["StringsFormat"]),
        .executable(name: "hotstrings", targets: ["hotstrings"]),
    ],
    targets: [
        .target(name: "StringsFormat", swiftSettings: strict),
        .target(name: "HotStringsCLI", dependencies: ["StringsFormat"], swiftSettings: strict),
        .executableTarget(name: "hotstrings", dependencies: ["HotStringsCLI"], swiftSettings: strict),
        .executableTarget(name: "hotstrings-bench", dependencies: ["StringsFormat"], swiftSettings: strict),
        .testTarget(
            name: "StringsFormatTests",
            dependencies: ["StringsFormat"],
            resources: [.copy("Fixtures")],
            swiftSettings: strict
        ),
        .testTarget(name: "HotStringsCLITests", dependencies: ["HotStringsCLI", "StringsFormat"], swiftSettings: strict),
    ]
)
