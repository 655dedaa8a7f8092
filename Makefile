# rocekb — see README.md. Every target works from a fresh clone with Go installed.
GO      ?= go
ADDR    ?= 127.0.0.1:8080
OUT     ?= public
RECORDS ?= testdata/hosts
FUZZTIME ?= 60s
# A new interesting input is minimised for at most this long: the default,
# 60 s, spent a whole run minimising kilobytes of TOML one byte at a time.
FUZZMINTIME ?= 5s

.PHONY: build run test bench fuzz lint clean FORCE

build: bin/kbgen bin/kbcollect

bin/%: FORCE
	$(GO) build -o $@ ./cmd/$*

# Build the bundled knowledge base (with the fixture hosts as example records)
# into $(OUT)/ and serve it for preview; edits to matrix/, content/ or the
# records rebuild the site and reload open pages.
run: build
	./bin/kbgen serve --out $(OUT) --records $(RECORDS) --addr $(ADDR)

# go test runs every analyzer, as go vet ./... does (-vet=all: the packages
# without tests are vetted too, and a finding fails the run), within its
# own build: the packages are loaded once, and vetting and compiling go on
# beside the first tests instead of before them. Test binaries are linked
# without DWARF (-w), which nothing reads and which was 40% of their link
# time. Some test packages spend much of their time waiting (on Chromium,
# ansible-playbook, a server starting), so more packages run at once than
# there are cores.
#
# go test's default 10-minute limit per test binary killed internal/search
# (about 2 minutes when the 2 cores are its own) on a machine whose load
# average was over 20: the limit is 30 minutes, a bound on a hang, not a pace.
#
# go test starts packages in the order they are named, and ./... names them
# alphabetically, which left the longest (search and site, 10-25 s each)
# for last, on one core. The packages that run longest are named first
# (longest first), so the short ones fill the cores at the end.
TESTP ?= 4
TESTFIRST = ./cmd/kbgen ./internal/search ./internal/site ./cmd/kbcollect ./contrib/ansible \
	./bench/harness ./internal/build ./internal/export ./internal/render ./internal/verdict
test:
	$(GO) test -vet=all -ldflags=-w -timeout 30m -p $(TESTP) $(TESTFIRST) ./...

lint: build
	./bin/kbgen lint

# Benchmarks measure; they never fail on timing. The Go benchmarks print in
# benchstat's format; the harness runs kbgen beside Hugo and Pagefind on the
# synthetic corpus (installing them when missing) and prints ratios.
# Raw results land in bench/results/ (gitignored). BENCH_SIZES=smoke,10k,fleet
BENCH_SIZES ?= smoke,10k
BENCH_RUNS  ?= 3
bench: build
	@mkdir -p bench/results
	$(GO) test -run '^$$' -bench . -benchmem ./... | tee bench/results/go-bench.txt
	$(GO) run ./bench/harness -sizes $(BENCH_SIZES) -runs $(BENCH_RUNS) -peers

# Run every fuzz target for $(FUZZTIME) each, and say how many inputs
# each one ran. Packages without a fuzz target are not built for it.
fuzz:
	@for pkg in $$(grep -l '^func Fuzz' $$(find internal cmd -name '*_test.go') | xargs -n1 dirname | sort -u); do \
	  for f in $$(grep -ho '^func Fuzz[A-Za-z0-9_]*' $$pkg/*_test.go | cut -d' ' -f2); do \
	    echo "== ./$$pkg $$f"; out=$$(mktemp); \
	    if $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINTIME) ./$$pkg >$$out 2>&1; then st=0; else st=1; fi; \
	    grep -v '^fuzz: elapsed' $$out; grep '^fuzz: elapsed' $$out | tail -1; rm -f $$out; \
	    [ $$st -eq 0 ] || exit 1; \
	  done; \
	done

clean:
	rm -rf bin $(OUT)
