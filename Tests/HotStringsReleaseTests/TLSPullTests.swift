import Foundation
import HotStringsRelease
import HotStringsTestSupport
import LinuxSystem
import Testing

/// Pulls over HTTPS from a real nginx presenting a private, self-signed certificate: refused while nothing trusts
/// it (nothing installed, an error naming TLS), installed once it is in the system's CA bundle. That bundle is the
/// only trust `URLSession` has on Linux (libcurl's built-in CA file; corelibs-foundation reads no CA setting
/// outside Android), so the trusted pull runs in a mount namespace of its own where the certificate is bind-mounted
/// over the bundle, as `update-ca-certificates` would have installed it.
@Suite struct TLSPullTests {
    static let systemBundle = "/etc/ssl/certs/ca-certificates.crt"
    static let unshare = ["/usr/bin/unshare", "/bin/unshare"].first(where: FileManager.default.isExecutableFile)

    @Test func anUntrustedCertificateIsRefusedAndATrustedOneInstalls() throws {
        guard NginxOrigin.executable != nil else { try Test.cancel("nginx is not installed (CI installs it)") }
        guard TestCertificate.openssl != nil else { try Test.cancel("openssl is not installed") }
        let fixture = try ReleaseFixture()
        try FileSystem.makeDirectory(atPath: fixture.output)
        let release = try fixture.publish()
        let certificate = try TestCertificate()
        let nginx = try NginxOrigin(root: fixture.output, tls: certificate)
        #expect(nginx.url.hasPrefix("https://"))

        let refused = try HotstringsProcess.run(["pull", nginx.url, fixture.target])
        #expect(refused.code != 0)
        #expect(refused.stderr.contains("TLS verification failed"), "\(refused.stderr)")
        #expect(refused.stderr.contains("manifest.json"), "the error names what was fetched: \(refused.stderr)")
        #expect(fixture.currentRelease == nil, "nothing installed")
        #expect(!fixture.targetEntries.contains { $0.hasSuffix(".lproj") })
        #expect(nginx.requests.isEmpty, "no request got past the handshake: \(nginx.requests)")

        guard let unshare = Self.unshare, FileManager.default.fileExists(atPath: Self.systemBundle) else {
            try Test.cancel("the trusted half needs unshare(1) and \(Self.systemBundle)")
        }
        let probe = try ProcessRun.tool(unshare, ["-rm", "true"], mergingErrors: true)
        guard probe.code == 0 else {
            try Test.cancel("no unprivileged mount namespaces here (unshare -rm: \(probe.stdout)); trusted half not run")
        }
        guard let hotstrings = hotstringsExecutable?.path else { try Test.cancel("hotstrings is not built") }
        let trusted = try ProcessRun.tool(unshare, [
            "-rm", "sh", "-c", "mount --bind \"$0\" \"$1\" && exec \"$2\" pull \"$3\" \"$4\"",
            certificate.certificate, Self.systemBundle, hotstrings, nginx.url, fixture.target,
        ], mergingErrors: true)
        #expect(trusted.code == 0, "\(trusted.stdout)")
        #expect(fixture.currentRelease == release)
        #expect(try fixture.servesExactly(release))
        // nginx logs a request after answering it: the pull can be done first.
        #expect(waitUntil(.seconds(20)) { nginx.requests.first?.hasPrefix("/manifest.json 200") == true },
                "\(nginx.requests)")
    }
}
