import Foundation

/// A save of IceCubesApp's 2 MB String Catalog until the store's reload, next to a single `.strings` save in the
/// same bundle, interleaved: the catalog is read, parsed, compiled for each of its languages and diffed.
enum CatalogSaveLatency {
    /// Where the catalog is in the corpus folder.
    static let corpusPath = "/IceCubesApp/IceCubesApp/Resources/Localization/Localizable.xcstrings"

    /// The seconds of each save, `nil` when the corpus has no catalog.
    struct Samples {
        /// From the start of writing until the store's reload.
        var strings: [Double] = []
        var catalog: [Double] = []
        /// From the rename that completes the save (the writer's work done) until the store's reload.
        var stringsFromRename: [Double] = []
        var catalogFromRename: [Double] = []
        /// The catalog writer's time: its temporary file written and renamed over.
        var catalogWrites: [Double] = []
        var bytes = 0
    }

    static func measure(saves: Int, corpus: String?) throws -> Samples? {
        guard let corpus, let catalog = try? String(contentsOfFile: corpus + corpusPath, encoding: .utf8) else {
            return nil
        }
        // Each save changes one German value: one language, one key reloads.
        let marker = "\"value\" : \"Blockieren"
        guard let split = catalog.range(of: marker) else { return nil }
        let (head, tail) = (String(catalog[..<split.upperBound]), String(catalog[split.upperBound...]))
        func table(_ round: Int) -> String {
            (0..<100).map { "\"key.\($0)\" = \"Value \($0) in round \(round)\";" }.joined(separator: "\n")
        }
        let bundle = try TemporaryBundle(tables: ["en.lproj/Localizable.strings": table(0), "Catalog.xcstrings": catalog])
        defer { bundle.remove() }
        let watched = try WatchedStore(root: bundle.root)
        defer { watched.stop() }
        var samples = Samples(bytes: catalog.utf8.count)
        for round in 1...saves {
            // The texts are made and encoded before the clock starts: an editor writes the bytes it holds.
            let strings = Data(table(round).utf8)
            let stringsTimes = try watched.secondsUntilReload { () throws -> ContinuousClock.Instant in
                try bundle.atomicallyReplace("en.lproj/Localizable.strings", with: strings)
            }
            samples.strings.append(stringsTimes.total)
            samples.stringsFromRename.append(stringsTimes.fromMark)
            let edited = Data((head + " \(round)" + tail).utf8)
            let catalogTimes = try watched.secondsUntilReload { () throws -> ContinuousClock.Instant in
                let start = ContinuousClock.now
                let renaming = try bundle.atomicallyReplace("Catalog.xcstrings", with: edited)
                samples.catalogWrites.append((ContinuousClock.now - start).seconds)
                return renaming
            }
            samples.catalog.append(catalogTimes.total)
            samples.catalogFromRename.append(catalogTimes.fromMark)
        }
        return samples
    }
}

extension TemporaryBundle {
    /// Writes `bytes` beside `relativePath` and renames it over, as editors save; returns the instant just before
    /// the rename, when the writing was done.
    @discardableResult
    func atomicallyReplace(_ relativePath: String, with bytes: Data) throws -> ContinuousClock.Instant {
        let path = root + "/" + relativePath
        let temporary = (path as NSString).deletingLastPathComponent + "/.save-\(UUID().uuidString)"
        try bytes.write(to: URL(fileURLWithPath: temporary))
        let written = ContinuousClock.now
        guard rename(temporary, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        return written
    }
}
