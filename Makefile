# AuthBridge: `make run` starts the daemon on its embedded identity server; `make test` builds and
# runs every test (Swift, transcript replays, Node).
SWIFT ?= swift
NODE ?= node
NPM ?= npm
BIN := .build/debug/authbridge
# `make run ARGS='--flavor rn-android'`: options passed to the daemon.
ARGS ?=
# `make install PREFIX=…`: the release binary goes to $(PREFIX)/bin (REMOTE=1: remote mode's too).
PREFIX ?= /usr/local
# `make pack BINARY_PATH=…`: pack that binary instead of building the release one (the tests do).
BINARY_PATH ?=
REMOTE ?=

.PHONY: build release release-remote run serve test test-swift test-node transcripts bench clean install pack format lint

build:
	$(SWIFT) build

# Build output goes to stderr, so `make run | jq` sees protocol frames only. Beside stdio, `make run`
# serves AM's REST API and the inspector page (docs/inspector.md) on a free loopback port and prints
# both URLs on stderr; `make run RUN_HTTP=` runs stdio only, `RUN_HTTP=127.0.0.1:8080` picks the port.
RUN_HTTP ?= 127.0.0.1:0
run:
	@$(SWIFT) build >&2
	@$(BIN) --banner $(if $(RUN_HTTP),--http $(RUN_HTTP)) $(ARGS)

# AM's REST API over HTTP only, for a web app or curl (docs/http.md); SIGTERM or Ctrl-C stops it.
SERVE_ADDRESS ?= 127.0.0.1:8080
CORS_ORIGIN ?= http://localhost:3000
serve: build
	$(BIN) --http $(SERVE_ADDRESS) --no-stdio --cors-origin $(CORS_ORIGIN)

# The Node tests use this build, never an authbridge found on PATH. Tests/Fixtures/crypto/ holds
# the node:crypto cross-check of AuthBridgeCore's crypto (its fixtures' generators and their tests).
test: build
	$(SWIFT) test
	AUTHBRIDGE_BIN=$(abspath $(BIN)) $(NODE) --test protocol/ docs/ Tests/Fixtures/crypto/

# The toolchain's swift-format with .swift-format: `make format` rewrites in place, `make lint`
# fails on anything it would change or flag (.ci/run lints before testing).
FORMATTED := Sources Tests Package.swift
format:
	$(SWIFT) format format --in-place --recursive --parallel $(FORMATTED)

lint:
	$(SWIFT) format lint --strict --recursive --parallel $(FORMATTED)

# Re-record the golden transcripts from their inputs. Review the diff before committing it.
transcripts: build
	$(NODE) protocol/transcripts/record.mjs

# A fully static release binary: no shared Swift libraries to load at start-up (docs/performance.md).
RELEASE_BIN := .build-release/release/authbridge
# Only the default product: authbridge-remote links Foundation, and no static libcurl ships.
# macOS has no static executables; its Swift runtime is part of the OS.
release:
	$(SWIFT) build -c release --build-path .build-release $(if $(filter Darwin,$(shell uname -s)),,-Xswiftc -static-executable) --product authbridge

# Remote mode's binary (docs/remote.md), dynamically linked: it needs the Swift runtime and
# libcurl on the machine. `authbridge --server …` runs it from authbridge's own directory.
RELEASE_REMOTE_BIN := .build-release-remote/release/authbridge-remote
release-remote:
	$(SWIFT) build -c release --build-path .build-release-remote --product authbridge-remote

# Speed and memory against C floors measured in the same run (stdio and HTTP); table on stdout, JSON in .build-release/bench.json.
bench: release
	cc -O2 -o .build-release/baseline Tests/Benchmark/baseline.c
	cc -O2 -o .build-release/baseline-http Tests/Benchmark/baseline-http.c
	$(NODE) Tests/Benchmark/bench.mjs $(RELEASE_BIN) .build-release/baseline .build-release/bench.json .build-release/baseline-http

# The static release binary on PATH: $(PREFIX)/bin/authbridge. REMOTE=1 puts authbridge-remote
# beside it, where `authbridge --server …` looks for it (it needs the Swift runtime and libcurl).
install: release $(if $(REMOTE),release-remote)
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 $(RELEASE_BIN) $(DESTDIR)$(PREFIX)/bin/authbridge
	$(if $(REMOTE),install -m 0755 $(RELEASE_REMOTE_BIN) $(DESTDIR)$(PREFIX)/bin/authbridge-remote)

# The Node client as npm packages, in PACK_OUT: authbridge-client-VERSION.tgz (JavaScript) and
# authbridge-client-<platform>-<arch>-VERSION.tgz (this machine's static release binary, the
# optional dependency npm picks by os/cpu). `npm install --save-dev` both (docs/testing-with-jest.md).
PACK_OUT ?= .build-release
pack: $(if $(BINARY_PATH),,release)
	$(if $(BINARY),$(warning BINARY=1 is no longer needed: make pack always packs the binary package))
	NPM=$(NPM) $(NODE) protocol/clients/node/pack.mjs --out $(PACK_OUT) --binary $(or $(BINARY_PATH),$(RELEASE_BIN))

clean:
	rm -rf .build .build-release
