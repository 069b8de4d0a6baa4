/// Placeholder until the module lands.
enum BundleWatcherPlaceholder {}
