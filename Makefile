# solbehave: `make run` runs the pipeline on the demo corpus; `make test` runs every test.
# Both install what they need: Go modules through the module proxy, and each
# solc compiler from npm on first use (cached in $SOLBEHAVE_CACHE, default ~/.cache/solbehave).

GO      ?= go
BIN     := bin/solbehave
DATA    ?= data
CORPUS  ?= data/corpus/demo
ARGS    ?=

.PHONY: all build run test vet demo-corpus bench clean check-tools

all: build

check-tools:
	@command -v $(GO) >/dev/null || { echo "Go is required (https://go.dev)"; exit 1; }
	@command -v node >/dev/null || { echo "Node.js is required: the solc compilers run on it"; exit 1; }
	@command -v npm >/dev/null || { echo "npm is required: the solc compilers are installed from npm"; exit 1; }

build: check-tools
	$(GO) mod download
	$(GO) build -o $(BIN) ./cmd/solbehave

run: build
	./$(BIN) run --corpus $(CORPUS) --data $(DATA) $(ARGS)

vet:
	$(GO) vet ./...

test: check-tools vet
	$(GO) test -timeout 30m ./...

demo-corpus: check-tools
	$(GO) run ./cmd/democorpus -out $(CORPUS)
	$(GO) run ./cmd/democorpus -faults -out data/faults

clean:
	rm -rf bin $(DATA)/warehouse $(DATA)/state $(DATA)/solbehave.duckdb $(DATA)/report $(DATA)/bench
