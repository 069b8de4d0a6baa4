/// Placeholder until the module lands.
enum StringsStorePlaceholder {}
