/// Placeholder until the module lands.
enum HotStringsClientPlaceholder {}
