# solbehave: `make run` runs the pipeline on the demo corpus; `make test` runs every test.
# Both install what they need: Go modules through the module proxy, and each
# solc compiler from npm on first use (cached in $SOLBEHAVE_CACHE, default ~/.cache/solbehave).

GO      ?= go
BIN     := bin/solbehave
DATA    ?= data
CORPUS  ?= data/corpus/demo
ARGS    ?=

# The bench's corpus: the real mainnet contracts beside the checkout when present.
BENCH_CORPUS ?= $(if $(wildcard ../shared/corpus/mainnet),../shared/corpus/mainnet,$(CORPUS))

.PHONY: all build run test test-deps temporal-dev vet demo-corpus bench bench-smoke bench-temporal bench-vuln load-check pgo fuzz clean check-tools

all: build

check-tools:
	@command -v $(GO) >/dev/null || { echo "Go is required (https://go.dev)"; exit 1; }
	@command -v node >/dev/null || { echo "Node.js is required: the solc compilers run on it"; exit 1; }
	@command -v npm >/dev/null || { echo "npm is required: the solc compilers are installed from npm"; exit 1; }

# -buildvcs=auto: `solbehave version` and the runs dataset name the commit (some machines set GOFLAGS=-buildvcs=false).
build: check-tools
	$(GO) mod download
	$(GO) build -buildvcs=auto -o $(BIN) ./cmd/solbehave

run: build
	./$(BIN) run --corpus $(CORPUS) --data $(DATA) $(ARGS)

vet:
	$(GO) vet ./...

# Best effort: the report's browser test renders the page in headless Chromium
# (Debian's chromium package), the notebooks run on Debian's Jupyter, pandas and
# matplotlib, the export tests read CSV/NDJSON with Debian's pandas; where they
# cannot be installed those tests skip, and this says why (apt's own error
# lines, e.g. a package manager locked by another process).
TEST_DEBS := chromium jupyter-nbconvert python3-nbformat python3-ipykernel python3-pandas python3-matplotlib fonts-liberation
test-deps:
	@missing=""; for p in $(TEST_DEBS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	[ -z "$$missing" ] && exit 0; \
	skip="the browser, notebook and pandas tests will skip"; \
	if [ "$$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then \
	  echo "not installed:$$missing ($$skip): installing them needs root and apt-get"; exit 0; fi; \
	log=$$(mktemp); \
	if (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing) >$$log 2>&1; \
	then rm -f $$log; \
	else echo "not installed:$$missing ($$skip); apt-get said:"; grep -E '^(E|W|Err):' $$log || tail -n 5 $$log; rm -f $$log; fi

# The Temporal tests run an embedded server, its own Go module (tools/temporal-dev):
# built here, once per content (cached in $SOLBEHAVE_CACHE), so that its first,
# slow build (minutes on 2 cores) does not run inside a test's timeout.
temporal-dev: build
	./$(BIN) temporal dev-server --build-only

# The packages compile the same demo contracts many times over: one solc output
# cache (SOLBEHAVE_COMPILE_CACHE, keyed by compiler and input) serves this
# invocation's tests, each distinct compile done once; it goes with the run.
test: check-tools vet test-deps temporal-dev
	@cache=$$(mktemp -d); SOLBEHAVE_COMPILE_CACHE=$$cache $(GO) test -timeout 50m ./...; rc=$$?; rm -rf $$cache; exit $$rc

# bench: ours vs bare go-ethereum vs Hardhat 2 (EDR, installed from npm into the
# cache on first use) on the same transactions, plus compile, O1, O2 and memory
# figures; writes $(DATA)/bench/latest.json and prints a table. Slow (tens of
# minutes on the 44 mainnet contracts). bench-smoke is the two-contract version
# that `make test` also runs (cmd/solbehave/bench TestSmoke). bench-temporal adds the
# Temporal figure group to latest.json: the whole pipeline on the demo corpus,
# local runner vs an embedded Temporal server with 1, 2 and 3 workers (a few
# minutes; the first use builds the server, about 12 minutes on 2 cores).
bench: build
	./$(BIN) bench --corpus $(BENCH_CORPUS) --data $(DATA) $(ARGS)
	./$(BIN) bench --temporal 1,2,3 --corpus $(CORPUS) --data $(DATA)

bench-temporal: build
	./$(BIN) bench --temporal 1,2,3 --corpus $(CORPUS) --data $(DATA) $(ARGS)

bench-smoke: build
	./$(BIN) bench --smoke --corpus $(BENCH_CORPUS) --data $(DATA) $(ARGS)

# bench-vuln: the vulnerability detector on SmartBugs Curated (../shared/vulns/smartbugs-curated)
# with 3-fold cross-validation (issue #21): every file under the default setting (vuln_eval, the
# tuned figures) and each other setting of stages/vuln/cv.go (vuln_cv), then prints vuln_eval and
# vuln_eval_cv side by side. Its own data folder; slow (each file runs once per setting).
VULN_CORPUS ?= ../shared/vulns/smartbugs-curated
VULN_DATA   ?= $(DATA)/bench-vuln
bench-vuln: build
	@test -f $(VULN_CORPUS)/vulnerabilities.json || { echo "bench-vuln: no SmartBugs corpus at $(VULN_CORPUS)"; exit 1; }
	@# exit 2 = some units failed (two SmartBugs files cannot be deployed: listed below); 1 is an error
	./$(BIN) vuln --corpus $(VULN_CORPUS) --data $(VULN_DATA) --vuln-cv $(ARGS) || [ $$? -eq 2 ]
	./$(BIN) errors --data $(VULN_DATA)
	./$(BIN) sql --data $(VULN_DATA) "SELECT profile, class, tp, fp, fn, precision, recall FROM vuln_eval ORDER BY profile, class"
	./$(BIN) sql --data $(VULN_DATA) "SELECT profile, class, settings, labelled, tp, fp, fn, precision, precision_lo, precision_hi, recall, recall_lo, recall_hi FROM vuln_eval_cv ORDER BY profile, class"

# load-check: the reference generator's run on the demo corpus twice, as the machine is and with
# GOMAXPROCS=1 beside HOGS (3) busy loops; every dataset's digest must match and no reference sample
# be divergent (tools/load-check.sh; its own folder, $(DATA)/load-check; several minutes).
load-check: build
	BIN=$(BIN) CORPUS=$(CORPUS) OUT=$(DATA)/load-check ARGS="$(ARGS)" tools/load-check.sh

# pgo: refresh cmd/solbehave/default.pgo, the CPU profile `go build` optimises the binary for
# (profile-guided optimisation), from one profiled run on the bench's corpus (tools/pgo.sh).
pgo: build
	BIN=$(BIN) CORPUS=$(BENCH_CORPUS) OUT=$(DATA)/pgo tools/pgo.sh

# Go native fuzzing of what comes from outside: the corpus record reader and
# the Etherscan answer decoder, the LLM reply extractor and usage figures, the
# merge and publish's licence check. `make test` runs only their committed seeds
# (testdata/fuzz); this target fuzzes
# each for FUZZTIME (the instrumented first build takes minutes on 2 cores).
FUZZTIME ?= 60s
fuzz:
	$(GO) test ./internal/etherscan -run '^$$' -fuzz '^FuzzCorpusRecord$$' -fuzztime $(FUZZTIME)
	$(GO) test ./internal/etherscan -run '^$$' -fuzz '^FuzzAnswer$$' -fuzztime $(FUZZTIME)
	$(GO) test ./internal/regen -run '^$$' -fuzz '^FuzzExtractBody$$' -fuzztime $(FUZZTIME)
	$(GO) test ./internal/regen -run '^$$' -fuzz '^FuzzMerge$$' -fuzztime $(FUZZTIME)
	$(GO) test ./cmd/solbehave/release -run '^$$' -fuzz '^FuzzLicense$$' -fuzztime $(FUZZTIME)
	$(GO) test ./internal/llm -run '^$$' -fuzz '^FuzzUsage$$' -fuzztime $(FUZZTIME)

demo-corpus: check-tools
	$(GO) run ./cmd/democorpus -out $(CORPUS)
	$(GO) run ./cmd/democorpus -faults -out data/faults

# Removes every output under $(DATA), keeping the committed inputs (corpus, faults, annotations).
clean:
	rm -rf bin
	find $(DATA) -mindepth 1 -maxdepth 1 ! -name corpus ! -name faults ! -name annotations -exec rm -rf {} +
