import Foundation

/// The `hotstrings` binary that `swift build --build-tests` puts next to the test runner, or nil if it was not
/// built.
///
/// The build products folder holds the test runner or the benchmark (`CommandLine.arguments[0]`) or the test
/// bundle, depending on how they were started; all of these places are looked in.
package let hotstringsExecutable: URL? = builtExecutable(named: "hotstrings")

/// The executable `name` of this package's build, found where `hotstringsExecutable` is, or nil.
package func builtExecutable(named name: String) -> URL? {
    let candidates = [
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
        // `swift run` starts the benchmark through a symbolic link on some toolchains.
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent(),
        Bundle.main.bundleURL,
        Bundle.main.bundleURL.deletingLastPathComponent(),
    ]
    return candidates.map { $0.appendingPathComponent(name) }
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }
}

/// The repository root, found from this source file's path (`Tests/HotStringsTestSupport/<file>`).
package let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The repository's `sample-bundle` folder, which tests copy before they change anything in it.
package let sampleBundlePath = repositoryRoot.appendingPathComponent("sample-bundle").path

/// The shared corpus of real apps' localization files next to the repository (`../shared/corpus`, or
/// `$HOTSTRINGS_CORPUS`), or nil when it is not there.
package let corpusRoot: String? = {
    let corpus = ProcessInfo.processInfo.environment["HOTSTRINGS_CORPUS"]
        ?? repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus").path
    return FileManager.default.fileExists(atPath: corpus) ? corpus : nil
}()

/// IceCubesApp's String Catalog (2 MB, 733 keys, 19 languages; plural, device and substitution variations) in the
/// shared corpus, or nil when the corpus is not there.
package let corpusCatalogPath: String? = corpusRoot.flatMap { corpus in
    let path = corpus + "/IceCubesApp/IceCubesApp/Resources/Localization/Localizable.xcstrings"
    return FileManager.default.fileExists(atPath: path) ? path : nil
}
