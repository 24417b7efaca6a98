# AuthBridge: `make run` starts the daemon on its embedded identity server; `make test` builds and
# runs every test (Swift, transcript replays, Node).
SWIFT ?= swift
NODE ?= node
BIN := .build/debug/authbridge

.PHONY: build run test test-swift test-node transcripts clean

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

clean:
	rm -rf .build
