# AuthBridge: `make run` starts the daemon on its embedded identity server; `make test` builds and
# runs every test (Swift, transcript replays, Node).
SWIFT ?= swift
NODE ?= node
BIN := .build/debug/authbridge

.PHONY: build release run test test-swift test-node transcripts bench clean

build:
	$(SWIFT) build

run: build
	@$(BIN) --banner

test: build
	$(SWIFT) test
	$(NODE) --test protocol/

# Re-record the golden transcripts from their inputs. Review the diff before committing it.
transcripts: build
	$(NODE) protocol/transcripts/record.mjs

# A fully static release binary: no shared Swift libraries to load at start-up (docs/performance.md).
RELEASE_BIN := .build-release/release/authbridge
release:
	$(SWIFT) build -c release --build-path .build-release -Xswiftc -static-executable

# Speed and memory against a C floor measured in the same run; table on stdout, JSON in .build-release/bench.json.
bench: release
	cc -O2 -o .build-release/baseline Tests/Benchmark/baseline.c
	$(NODE) Tests/Benchmark/bench.mjs $(RELEASE_BIN) .build-release/baseline .build-release/bench.json

clean:
	rm -rf .build .build-release
