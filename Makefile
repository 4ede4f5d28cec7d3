# Makefile: the two user commands (make demo, make check) around the CMake build.
BUILD ?= build
JOBS ?= 2
SYMPATH = $(BUILD)/bin/sympath

.PHONY: all deps build check demo bench bench-unit bench-data clean

all: build

# Install what is missing (scripts/install-deps.sh is idempotent and quiet when all is there).
deps:
	@command -v clang-14 >/dev/null && command -v llvm-config-14 >/dev/null && command -v llvm-link-14 >/dev/null && \
	  command -v cmake >/dev/null && command -v gcovr >/dev/null && command -v jq >/dev/null && \
	  test -f /usr/include/z3.h && test -f /usr/include/cmocka.h && test -f /usr/include/sqlite3.h && test -f /usr/include/pg_query.h && command -v sqlite3 >/dev/null && \
	  test -f /usr/include/postgresql/libpq-fe.h && test -x /usr/lib/postgresql/15/bin/initdb && \
	  test -f /usr/lib/llvm-14/include/clang-c/Index.h && python3 -c "import jsonschema" 2>/dev/null || sh scripts/install-deps.sh

build: deps
	@test -f $(BUILD)/CMakeCache.txt || cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

check: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

demo: build
	rm -rf demo-out
	$(SYMPATH) run examples/demo.c -o demo-out --budget 30s
	$(SYMPATH) replay demo-out --coverage

bench: build
	sh bench/run.sh

bench-unit: build
	bash bench/unit.sh

bench-data: build
	sh bench/data.sh 60s

clean:
	rm -rf $(BUILD) demo-out
