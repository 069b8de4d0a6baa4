import Foundation

/// A save of IceCubesApp's 2 MB String Catalog until the store's reload, next to a single `.strings` save in the
/// same bundle, interleaved: the catalog is read, parsed, compiled for each of its languages and diffed.
enum CatalogSaveLatency {
    /// Where the catalog is in the corpus folder.
    static let corpusPath = "/IceCubesApp/IceCubesApp/Resources/Localization/Localizable.xcstrings"

    /// The seconds of each save, `nil` when the corpus has no catalog.
    static func measure(saves: Int, corpus: String?)
        throws -> (strings: [Double], catalog: [Double], catalogWrites: [Double], bytes: Int)?
    {
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
        var stringsTimes: [Double] = []
        var catalogTimes: [Double] = []
        var writeTimes: [Double] = []
        for round in 1...saves {
            // The texts are made before the clock starts; writing them is part of the save.
            let strings = table(round)
            stringsTimes.append(try watched.secondsUntilReload {
                try bundle.atomicallyReplace("en.lproj/Localizable.strings", with: strings)
            })
            // Encoded before the clock starts too: an editor writes the bytes it holds.
            let edited = Data((head + " \(round)" + tail).utf8)
            catalogTimes.append(try watched.secondsUntilReload {
                let start = ContinuousClock.now
                try bundle.atomicallyReplace("Catalog.xcstrings", with: edited)
                writeTimes.append((ContinuousClock.now - start).seconds)
            })
        }
        return (stringsTimes, catalogTimes, writeTimes, catalog.utf8.count)
    }
}

extension TemporaryBundle {
    /// Writes `bytes` beside `relativePath` and renames it over, as editors save.
    func atomicallyReplace(_ relativePath: String, with bytes: Data) throws {
        let path = root + "/" + relativePath
        let temporary = (path as NSString).deletingLastPathComponent + "/.save-\(UUID().uuidString)"
        try bytes.write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }
}
