/// Placeholder until the module lands.
enum LinuxSystemPlaceholder {}
