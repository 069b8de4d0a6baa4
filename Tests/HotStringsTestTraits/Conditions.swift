import HotStringsTestSupport
import Testing

/// The conditions under which tests run, each said once, as traits: `@Suite(.needsHotstringsBinary)`.
///
/// A target of its own because a trait needs Testing, and `HotStringsTestSupport` must not import it (the benchmark
/// links that one); what the conditions read (the built binary, the corpus) stays in `HotStringsTestSupport`.
extension Trait where Self == ConditionTrait {
    /// Runs a test only when the `hotstrings` binary was built next to the test runner: every test that starts the
    /// real daemon or a command.
    package static var needsHotstringsBinary: Self {
        .enabled(if: hotstringsExecutable != nil,
                 "the hotstrings binary is not next to the test runner: run `swift build --build-tests` first")
    }

    /// Runs a test only when the shared corpus of real apps' files is there (`corpusRoot`).
    package static var needsCorpus: Self {
        .enabled(if: corpusRoot != nil, "the shared corpus (../shared/corpus, or $HOTSTRINGS_CORPUS) is absent")
    }

    /// Runs a test only when IceCubesApp's String Catalog is in the shared corpus (`corpusCatalogPath`).
    package static var needsCorpusCatalog: Self {
        .enabled(if: corpusCatalogPath != nil, "the IceCubesApp catalog is not in the shared corpus")
    }
}
