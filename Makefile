# rocekb — see README.md. Every target works from a fresh clone with Go installed.
GO      ?= go
ADDR    ?= 127.0.0.1:8080
OUT     ?= public
RECORDS ?= testdata/hosts
FUZZTIME ?= 60s

.PHONY: build run test bench fuzz lint clean FORCE

build: bin/kbgen bin/kbcollect

bin/%: FORCE
	$(GO) build -o $@ ./cmd/$*

# Build the bundled knowledge base (with the fixture hosts as example records)
# into $(OUT)/ and serve it for preview.
run: build
	./bin/kbgen build --out $(OUT) --records $(RECORDS)
	./bin/kbgen serve --dir $(OUT) --addr $(ADDR)

test:
	$(GO) vet ./...
	$(GO) test ./...

lint: build
	./bin/kbgen lint

# Benchmarks measure; they never fail on timing.
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# Run every fuzz target for $(FUZZTIME) each.
fuzz:
	@for pkg in $$($(GO) list ./internal/...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "== $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	  done; \
	done

clean:
	rm -rf bin $(OUT)
