/// Placeholder until the module lands.
enum HotStringsServerPlaceholder {}
