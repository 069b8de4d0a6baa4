/// Placeholder until the module lands.
enum HotStringsProtocolPlaceholder {}
