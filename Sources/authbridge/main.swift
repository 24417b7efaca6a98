import Daemon

// The default build: the embedded server and every face, no Foundation (fully static with
// `make release`). Remote mode hands over to authbridge-remote.
Daemon.run(connect: nil)
