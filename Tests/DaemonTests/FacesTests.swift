import Testing

@testable import Daemon

/// Which faces start for which options: the decision `Daemon.run` acts on.
@Suite struct FacesTests {
    static func faces(_ arguments: [String], remoteLinked: Bool = false, terminal: Bool = false) throws -> Faces {
        Faces(try Options.parse(arguments), remoteLinked: remoteLinked, stdinIsTerminal: terminal)
    }

    static let tenant = ["--server", "https://t/am", "--realm", "r", "--client-id", "c", "--redirect-uri", "a:/b"]

    @Test func byDefaultStdioOnly() throws {
        #expect(try Self.faces([]) == Faces(handOverToRemote: false, http: false, stdio: true, banner: false))
    }

    @Test func httpBesideStdio() throws {
        #expect(
            try Self.faces(["--http", "0"]) == Faces(handOverToRemote: false, http: true, stdio: true, banner: false))
    }

    @Test func httpAloneWithNoStdio() throws {
        #expect(
            try Self.faces(["--http", "0", "--no-stdio"])
                == Faces(handOverToRemote: false, http: true, stdio: false, banner: false))
    }

    @Test func aTenantHandsOverUnlessItsClientIsLinkedIn() throws {
        #expect(try Self.faces(Self.tenant).handOverToRemote)
        #expect(
            try Self.faces(Self.tenant, remoteLinked: true)
                == Faces(handOverToRemote: false, http: false, stdio: true, banner: false))
        #expect(try !Self.faces([], remoteLinked: false).handOverToRemote, "the embedded server never hands over")
    }

    @Test func theBannerForAPersonAtATerminalOrWhenAskedFor() throws {
        #expect(try Self.faces([], terminal: true).banner)
        #expect(try Self.faces(["--banner"]).banner)
        #expect(
            try !Self.faces(["--http", "0", "--no-stdio"], terminal: true).banner, "no stdin face: nobody types there")
        #expect(try Self.faces(["--http", "0", "--no-stdio", "--banner"]).banner)
    }
}
