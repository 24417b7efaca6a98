# AuthBridge: `make run` starts the daemon on its embedded identity server; `make test` builds and
# runs every test (Swift, transcript replays, Node).
SWIFT ?= swift
NODE ?= node
BIN := .build/debug/authbridge
TRANSCRIPT_ARGS := --seed 7 --clock virtual

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
	@for input in protocol/transcripts/*.in.jsonl; do \
		name=$${input%.in.jsonl}; \
		output=$$name.out.jsonl; \
		extra=$$(cat $$name.args 2>/dev/null); \
		$(BIN) $(TRANSCRIPT_ARGS) $$extra < $$input > $$output; \
		echo "recorded $$output"; \
	done

clean:
	rm -rf .build
