import Testing

@Test func BundleWatcherTestsPlaceholder() { #expect(Bool(true)) }
