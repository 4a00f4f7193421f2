# roceaudit — build, demo, test. Needs Go 1.26 (and gcc for the race detector).
GO      ?= go
BIN     := bin/roceaudit
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X main.buildVersion=$(VERSION)

.PHONY: build demo demo-healthy test lint bench fuzz clean

build:
	$(GO) build -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/roceaudit

# The main job on the built-in lab: the broken scenario finds a fault for every check and
# exits 1, which is what this target expects.
demo: build
	@./$(BIN) demo --scenario broken; rc=$$?; \
	if [ $$rc -ne 1 ]; then echo "demo: expected exit 1 (faults found), got $$rc" >&2; exit 1; fi; \
	echo; echo "demo: exit code 1 (faults found), as the broken scenario intends. Try: ./$(BIN) demo --scenario healthy"

demo-healthy: build
	./$(BIN) demo --scenario healthy

lint:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$unformatted" ]; then echo "not gofmt-clean:" $$unformatted >&2; exit 1; fi
	$(GO) vet ./...
	@$(GO) mod tidy -diff || { echo "go.mod/go.sum are not tidy (diff above): run go mod tidy" >&2; exit 1; }
	$(GO) test -count=1 ./archtest   # which package may import which

test: lint
	$(GO) test -race -count=1 -timeout 30m ./...

# Go benchmarks of the parts (parsers, redaction, check engine, snapshot I/O, small labs),
# then the scale run: a generated 1,000-device lab at 10ms a flight, audited by the real
# binary, beside OpenSSH, in one table. Size it with BENCH_GENERATE=hosts=H,leaves=L,spines=S,
# BENCH_LATENCY, BENCH_CONCURRENCY; BENCH_OPENSSH=0 skips OpenSSH; BENCH_REPEAT=N audits N
# times and reports the one of median CPU (3 up to 2,000 devices, else 1). The table's CPU FLOOR
# column is (the run's CPU + the lab's during it) / cores: where it exceeds FLOOR, the wall
# is CPU-bound (lab and auditor share the machine), not latency-bound.
#   8-rail hosts:    make bench BENCH_GENERATE=hosts=960,leaves=32,spines=8,rails=8
#   10,000 devices:  make bench BENCH_GENERATE=hosts=9680,leaves=256,spines=64 BENCH_OPENSSH=0 BENCH_TIMEOUT=15m
#     (the lab needs ~10,500 file descriptors: RLIMIT_NOFILE's hard limit must allow it; 200
#     switches collected at once share the cores, so each device needs more than the default
#     BENCH_TIMEOUT of 2m; OpenSSH at that size runs for tens of minutes, hence skipped)
# What the machine cannot measure (no ssh client, no /proc for the lab's CPU) the table says;
# a failing part benchmark does not stop the scale run, and make still fails after it.
bench:
	@status=0; \
	$(GO) test -run '^$$' -bench . -benchmem ./... || status=$$?; \
	ROCEAUDIT_BENCH=1 $(GO) test -count=1 -run '^TestScale$$' -v -timeout 4h ./bench || status=$$?; \
	exit $$status

# Every fuzz target of every package, FUZZTIME each (1m by default; CI runs a short smoke
# pass). A crasher is written to the package's testdata/fuzz/ and becomes a regression test.
FUZZTIME ?= 1m
fuzz:
	@for pkg in $$($(GO) list ./...); do \
		for t in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
			echo "fuzz $$pkg $$t ($(FUZZTIME))"; \
			$(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) -fuzzminimizetime 5s $$pkg >/tmp/roceaudit-fuzz.log 2>&1 || \
				{ cat /tmp/roceaudit-fuzz.log; exit 1; }; \
		done; \
	done

clean:
	rm -rf bin
