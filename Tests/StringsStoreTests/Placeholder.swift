import Testing

@Test func StringsStoreTestsPlaceholder() { #expect(Bool(true)) }
