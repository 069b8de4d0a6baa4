import StringsFormat

extension MirrorEngine {
    /// The view a request with `header` gets: the bundle languages that answer its preferences (none that a `q=0`
    /// range excludes), then the development language and `Base`, resolved from the tables held now. The
    /// client's own language (override, selection, environment) does not apply: the request names its own.
    func view(accepting header: AcceptLanguage) -> MirrorView {
        let chain = currentMatcher()
            .resolve(acceptLanguage: header, selected: nil, development: LanguageTag(developmentLanguage) ?? .base)
            .map(\.language.identifier)
        var view = self.view
        view.strings = Self.build(chain: chain, from: tables)
        view.rules = Self.resolveRules(chain: chain, tables: tables, rules: rules)
        view.language = chain.first { $0 != LanguageTags.base } ?? developmentLanguage
        return view
    }
}
