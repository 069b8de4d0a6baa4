import HotStringsTestSupport
import Testing

/// Tests that run the daemon are skipped, with this message, when the binary was not built.
///
/// The daemon itself is `DaemonProcess` in a `Sandbox`, shared with the other test targets.
let needsDaemon = Testing.ConditionTrait.enabled(
    if: hotstringsExecutable != nil,
    "the hotstrings binary is not next to the test bundle: run `swift build --build-tests` first"
)
