import Foundation
import HotStringsRelease
import LinuxSystem

/// `hotstrings keygen PUBLIC_FILE SECRET_FILE`: a key pair for signing releases, in minisign's format.
struct KeygenCommand: Command {
    static let spec = CommandSpec(
        name: "keygen",
        abstract: "Make a key pair for signing releases (publish --sign), in minisign's format.",
        discussion: """
            Writes an Ed25519 key pair as 'minisign -G -W' does: PUBLIC_FILE (give it to every machine that \
            pulls, and to anyone checking a release with 'minisign -Vm manifest.json -p PUBLIC_FILE') and \
            SECRET_FILE, unencrypted, readable by its owner only (0600). Keep the secret key offline or in your \
            CI's secrets: whoever has it can sign releases. Neither file is ever overwritten. minisign's own keys \
            ('minisign -G -W') work with publish --sign too. See docs/DEPLOY.md.
            """,
        arguments: [
            ArgumentSpec(name: "public-file", help: "Where to write the public key (must not exist)."),
            ArgumentSpec(name: "secret-file", help: "Where to write the secret key (must not exist)."),
        ],
        exitCodes: [
            (ExitCode.success, "Both files were written."),
            (ExitCode.failure, "A file exists already or cannot be written (nothing is overwritten)."),
            (ExitCode.usage, "The command line is wrong."),
        ]
    )

    var publicFile: String
    var secretFile: String

    init(arguments: ParsedArguments) throws(UsageError) {
        publicFile = arguments.positionals[0]
        secretFile = arguments.positionals[1]
        guard publicFile != secretFile else { throw UsageError("the public and secret key files must differ") }
    }

    func run<Output, ErrorOutput>(io: inout CommandIO<Output, ErrorOutput>) -> Int32 {
        for path in [publicFile, secretFile] where (try? LinuxSystem.FileSystem.status(atPath: path)) != nil {
            io.printError("\(path) exists: not overwritten, no key written")
            return ExitCode.failure
        }
        var key = MinisignSecretKey.generate()
        defer { key.wipe() }
        var secretText = Array(key.fileText.utf8)
        defer { secretText.wipe() }
        do {
            try LinuxSystem.FileSystem.writeNewFile(secretText, toPath: secretFile, mode: 0o600)
        } catch {
            io.printError("\(error); no key written")
            return ExitCode.failure
        }
        do {
            try LinuxSystem.FileSystem.writeNewFile(Array(key.publicKey.fileText.utf8), toPath: publicFile, mode: 0o644)
        } catch {
            // A secret key without its public key is of no use; leave no half of a pair behind.
            try? LinuxSystem.FileSystem.removeFile(atPath: secretFile)
            io.printError("\(error); no key written")
            return ExitCode.failure
        }
        io.stdout.write("key \(key.publicKey.keyIDText): public key \(publicFile), secret key \(secretFile)\n")
        return ExitCode.success
    }

    /// Reads a secret key file for `option` (publish --sign): one private to its owner, as ssh requires of its keys
    /// (a key that others could read may have been copied, and signing with it would hide that).
    /// - Throws: `UsageError` naming the file when it cannot be read, is open to its group or others (naming its
    ///   mode and the `chmod 600` that fixes it), or is not an unencrypted minisign key.
    static func secretKey(atPath path: String, option: String) throws(UsageError) -> MinisignSecretKey {
        let permissions: UInt32
        do {
            permissions = try LinuxSystem.FileSystem.ownership(atPath: path, followingSymlinks: true).permissions
        } catch {
            throw UsageError("\(option): cannot read the secret key: \(error)")
        }
        guard permissions & 0o077 == 0 else {
            let octal = String(permissions, radix: 8)
            let mode = String(repeating: "0", count: max(0, 4 - octal.count)) + octal
            throw UsageError("\(option): the secret key \(path) has mode \(mode), open to its group or others: "
                + "refused, as ssh refuses such keys; make it private with 'chmod 600 \(path)'")
        }
        var bytes: [UInt8]
        do {
            bytes = try LinuxSystem.FileSystem.readFile(atPath: path, maximumSize: 4096)
        } catch {
            throw UsageError("\(option): cannot read the secret key: \(error)")
        }
        defer { bytes.wipe() }
        do throws(MinisignError) {
            return try MinisignSecretKey(fileText: String(decoding: bytes, as: UTF8.self))
        } catch {
            throw UsageError("\(option): \(path) is not a minisign secret key: \(error)")
        }
    }
}
