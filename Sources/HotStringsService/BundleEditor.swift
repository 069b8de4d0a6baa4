import BundleChanges
import HotStringsProtocol
import HotStringsRelease
import LinuxSystem
import StringsFormat

/// Writes one key of one language back into a bundle's files: the `set` and `remove` of the CLI (`--bundle`, on the
/// files directly) and of the protocol (the daemon and embedded mode), one implementation for both.
///
/// It finds where the key is served from for the language (`BundleEditor+Places`), checks the input and the
/// format specifiers as `lint` judges them, edits the file's bytes with the `StringsFormat` editors (only the
/// value's bytes change) and replaces the file whole (temporary file, `fsync`, `rename`), keeping its mode and
/// owner. Edits of one folder are serialized by a lock on the folder, between threads and processes; a file an
/// editor changed between the read and the write is read and edited again, never overwritten. The daemon learns
/// of the edit as of any save: the watcher sees the rename, so a `set` is one `reload`.
package struct BundleEditor: Sendable {
    /// Why an edit was refused or failed; nothing was written.
    package struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// What kind of failure.
        package enum Kind: Sendable, Hashable {
            /// The key, value, table or language cannot be written (empty, a NUL, a path out of the bundle).
            case invalidInput
            /// The bundle serves no such language; `available` lists those it serves.
            case unknownLanguage
            /// The key (or its form) is not there to change or remove.
            case noSuchKey
            /// The value's format specifiers differ from the development language's (`--force` writes anyway).
            case specifierMismatch
            /// The file does not parse, or cannot be edited in place.
            case cannotEdit
            /// The file system refused: a full disk, a read-only folder, no permission.
            case cannotWrite
            /// The language folder stayed locked by another process until the deadline (`lockTimeout`).
            case busy
            /// Nothing of the bundle, or of this language, is written here: a bundle managed by `pull` (its files
            /// are a release's), or a pseudo-language (made from the development language).
            case readOnly
        }

        /// What kind of failure.
        package var kind: Kind
        /// What went wrong, naming the key, the language or the file.
        package var message: String
        /// For `.unknownLanguage`: the languages the bundle serves.
        package var available: [String]?

        package init(_ kind: Kind, _ message: String, available: [String]? = nil) {
            self.kind = kind
            self.message = message
            self.available = available
        }

        /// The message.
        package var description: String { message }
    }

    /// The bundle root, resolved (no symbolic links): every file written is below it.
    package let root: String
    /// The language whose values the others' format specifiers are checked against.
    package let developmentLanguage: LanguageTag
    /// The largest file read for an edit.
    package var maximumFileSize = 16 << 20
    /// How often a file that keeps changing between read and write is read again before the edit fails.
    package var attempts = 16
    /// How long the language folder's lock is waited for before the edit fails with `busy` (any process that can
    /// open the folder can hold it).
    package var lockTimeout = Duration.seconds(5)
    /// Whether the pseudo-languages (`en-XA`, `ar-XB`) are made from the development language where the bundle is
    /// served, so a folder of theirs would never be: they are refused.
    package var servesPseudoLanguages = false
    /// Whether the server this editor belongs to pulls releases into the bundle (`serve --pull`): every edit is
    /// refused, even before the first release is in.
    package var isFedByPull = false
    /// Called after each attempt's edit is made and before the file is replaced, with the attempt's number (tests
    /// save the file as an editor would there, to show the edit is made again on the new file).
    package var beforeReplacing: (@Sendable (Int) -> Void)?

    /// An editor of the bundle at `root`.
    /// - Throws: `Failure.cannotWrite` when the root cannot be resolved.
    package init(root: String, developmentLanguage: LanguageTag) throws(Failure) {
        do {
            self.root = try FileSystem.resolvedPath(root)
        } catch {
            throw Failure(.cannotWrite, "cannot open the bundle: \(error)")
        }
        self.developmentLanguage = developmentLanguage
    }

    /// Makes `edit`, and returns the path of the file written relative to the root (`de.lproj/Localizable.strings`).
    /// An edit that changes no byte writes nothing and returns the file all the same.
    ///
    /// Blocks: it waits for the folder's lock (up to `lockTimeout`), reads and writes files and flushes them. The
    /// service calls it on a worker thread, never on the core.
    /// - Parameters:
    ///   - lockDeadline: when the wait for the folder's lock ends (nil: `lockTimeout` from now); the lock is tried
    ///     once even past it.
    ///   - shouldGiveUp: asked while the lock is waited for; true ends the wait (the service is stopping).
    /// - Throws: `Failure`, with nothing written (a folder made for a new language is removed again).
    package func apply(_ edit: Edit, lockDeadline: ContinuousClock.Instant? = nil,
                       shouldGiveUp: () -> Bool = { false }) throws(Failure) -> String {
        let deadline = lockDeadline ?? .now + lockTimeout
        try Self.check(edit)
        if let reason = readOnlyReason(for: edit.language) { throw Failure(.readOnly, reason) }
        let place = try place(of: edit)
        if place.isNewFolder {
            // Judged before anything is made: a refused value leaves no empty folder behind.
            _ = try edited([], at: place, by: edit)
        }
        let isFolderMade = try makeFolder(of: place)
        do {
            return try write(edit, at: place, lockDeadline: deadline, shouldGiveUp: shouldGiveUp)
        } catch {
            // Only an empty folder goes; one another writer filled meanwhile stays.
            if isFolderMade { try? FileSystem.removeDirectory(atPath: path(of: place.folder)) }
            throw error
        }
    }

    /// Why nothing is written for `language`, or nil when edits are allowed: a bundle managed by `pull` (this
    /// server pulls into it, or it holds releases), a pseudo-language.
    package func readOnlyReason(for language: String? = nil) -> String? {
        if isFedByPull || ReleaseStore(bundle: root).holdsReleases {
            return "the bundle is managed by pull: its files are a release's, replaced by the next one (edit the "
                + "origin's source and publish a release instead)"
        }
        if servesPseudoLanguages, let language, let tag = LanguageTag(language), tag != developmentLanguage,
           PseudoLocalizer(language: tag) != nil {
            return "'\(tag.identifier)' is a pseudo-language, made from '\(developmentLanguage.identifier)' where the "
                + "bundle is served: edit '\(developmentLanguage.identifier)' instead"
        }
        return nil
    }

    /// Makes the folder of a new language's place; true when this call made it.
    private func makeFolder(of place: Place) throws(Failure) -> Bool {
        guard place.isNewFolder else {
            try checkContained(place)
            return false
        }
        var isMade = true
        do {
            try FileSystem.makeDirectory(atPath: path(of: place.folder))
        } catch where error.errno == .exists {
            isMade = false
        } catch {
            throw Failure(.cannotWrite, "cannot create \(display(place.folder)): \(error)")
        }
        do {
            try checkContained(place)
        } catch {
            if isMade { try? FileSystem.removeDirectory(atPath: path(of: place.folder)) }
            throw error
        }
        return isMade
    }

    /// Under the folder's lock: reads the file, edits it and replaces it, again while it changes between the two.
    private func write(_ edit: Edit, at place: Place, lockDeadline: ContinuousClock.Instant,
                       shouldGiveUp: () -> Bool) throws(Failure) -> String {
        let lock: DirectoryLock
        do {
            lock = try DirectoryLock(path: path(of: place.folder), deadline: lockDeadline, shouldGiveUp: shouldGiveUp)
        } catch {
            switch error {
            case .busy:
                throw Failure(.busy, "\(display(place.folder)) was still locked by another process \(lockTimeout) "
                              + "after the edit was asked for; nothing was written (try again)")
            case .abandoned:
                throw Failure(.busy, "the server is stopping; nothing was written")
            case .system(let error):
                throw Failure(.cannotWrite, "cannot lock \(display(place.folder)): \(error)")
            }
        }
        defer { withExtendedLifetime(lock) {} }
        for attempt in 0..<attempts {
            let path = path(of: place.file)
            let read: (bytes: [UInt8], version: FileSystem.FileVersion)?
            do {
                read = try FileSystem.readVersioned(atPath: path, maximumSize: maximumFileSize)
            } catch {
                throw Failure(.cannotWrite, "cannot read \(display(place.file)): \(error)")
            }
            let edited = try self.edited(read?.bytes ?? [], at: place, by: edit)
            if let read, read.bytes == edited { return place.file }
            beforeReplacing?(attempt)
            do {
                if try FileSystem.replaceFile(atPath: path, with: edited, ifStill: read?.version) { return place.file }
            } catch {
                throw Failure(.cannotWrite, "cannot write \(display(place.file)): \(error)")
            }
        }
        throw Failure(.cannotWrite, "\(display(place.file)) kept changing while it was edited; try again")
    }

    /// The absolute path of `relative` (a path below the root).
    func path(of relative: String) -> String {
        relative.isEmpty ? root : root + "/" + relative
    }

    /// `relative` as a message shows it.
    func display(_ relative: String) -> String {
        relative.isEmpty ? "the bundle root" : "'\(DisplayText.escaped(relative))'"
    }

    /// Refuses what no file may hold and names that leave the bundle or that the watcher ignores.
    static func check(_ edit: Edit) throws(Failure) {
        guard !edit.key.isEmpty else { throw Failure(.invalidInput, "the key must not be empty") }
        var texts = [("key", edit.key)]
        switch edit.change {
        case .value(let value, let comment):
            texts.append(("value", value))
            if let comment { texts.append(("comment", comment)) }
        case .form(let form, let variable, let value):
            texts += [("value", value), ("form", form)]
            if let variable { texts.append(("variable", variable)) }
        case .removal:
            if edit.device != nil { throw Failure(.invalidInput, "a device's text cannot be removed; set it instead") }
        }
        if let device = edit.device {
            guard !device.isEmpty else { throw Failure(.invalidInput, "the device must not be empty") }
            texts.append(("device", device))
        }
        for (name, text) in texts where text.utf8.contains(0) {
            throw Failure(.invalidInput, "the \(name) must not contain a NUL character")
        }
        let table = edit.table
        guard BundleNames.isTableName(table) else {
            throw Failure(.invalidInput, "'\(DisplayText.escaped(table))' is no table name (no '/', no leading '.')")
        }
    }

    /// Refuses a place whose folder (or file) is, through a symbolic link, outside the root.
    func checkContained(_ place: Place) throws(Failure) {
        for relative in [place.folder, place.file] {
            let resolved: String
            do {
                resolved = try FileSystem.resolvedPath(path(of: relative))
            } catch where error.errno == .noSuchFileOrDirectory && relative == place.file {
                continue
            } catch {
                throw Failure(.cannotWrite, "cannot open \(display(relative)): \(error)")
            }
            guard resolved == root || resolved.hasPrefix(root == "/" ? "/" : root + "/") else {
                throw Failure(.invalidInput, "\(display(relative)) leads out of the bundle (to \(resolved))")
            }
        }
    }

    /// The file's bytes with `edit` made, after the specifier check.
    func edited(_ bytes: [UInt8], at place: Place, by edit: Edit) throws(Failure) -> [UInt8] {
        let result: [UInt8]
        do {
            switch (place.kind, edit.change, edit.device) {
            case (.catalog, .value(let value, _), let device?):
                result = try StringCatalogEditor.setting(device: device, form: nil, variable: nil, of: edit.key,
                                                         language: place.language, to: value, in: bytes)
            case (.catalog, .form(let form, let variable, let value), let device?):
                result = try StringCatalogEditor.setting(device: device, form: form, variable: variable, of: edit.key,
                                                         language: place.language, to: value, in: bytes)
            case (.stringsdict, .value(let value, _), let device?):
                result = try StringsdictEditor.setting(device: device, form: nil, variable: nil, of: edit.key,
                                                       to: value, in: bytes)
            case (.stringsdict, .form(let form, let variable, let value), let device?):
                result = try StringsdictEditor.setting(device: device, form: form, variable: variable, of: edit.key,
                                                       to: value, in: bytes)
            case (.strings, _, .some), (_, .removal, .some):
                preconditionFailure("a device's text is set in a catalog or a .stringsdict, never removed")
            case (.strings, .value(let value, let comment), nil):
                result = try StringsFileEditor.setting(edit.key, to: value, comment: comment, in: bytes)
            case (.strings, .removal, nil):
                result = try StringsFileEditor.removing(edit.key, in: bytes)
            case (.stringsdict, .form(let form, let variable, let value), nil):
                result = try StringsdictEditor.setting(form: form, variable: variable, of: edit.key, to: value,
                                                       in: bytes)
            case (.stringsdict, .removal, nil):
                result = try StringsdictEditor.removing(edit.key, in: bytes)
            case (.catalog, .value(let value, let comment), nil):
                result = try StringCatalogEditor.setting(edit.key, language: place.language, to: value,
                                                         comment: comment, in: bytes)
            case (.catalog, .form(let form, let variable, let value), nil):
                result = try StringCatalogEditor.setting(form: form, variable: variable, of: edit.key,
                                                         language: place.language, to: value, in: bytes)
            case (.catalog, .removal, nil):
                result = try StringCatalogEditor.removing(edit.key, language: place.language, in: bytes)
            case (.stringsdict, .value, nil), (.strings, .form, nil):
                preconditionFailure("a place is chosen for its change")
            }
        } catch {
            throw Failure(error, file: display(place.file))
        }
        if !edit.isForced { try checkSpecifiers(of: edit, writing: result, replacing: bytes, at: place) }
        return result
    }
}

extension BundleEditor.Failure {
    /// The editor's error, naming the file.
    init(_ error: EditError, file: String) {
        let kind: Kind = switch error.code {
        case .noSuchKey: .noSuchKey
        case .invalidValue, .ambiguousVariable: .invalidInput
        default: .cannotEdit
        }
        self.init(kind, "\(file): \(error.message)")
    }
}
