# Makefile: the two user commands (make demo, make check) around the CMake build.
SHELL := /bin/bash
BUILD ?= build
# the sanitizer build (clang-14, Debug, -fsanitize=address,undefined) and the fuzz targets
BUILD_SAN ?= build-san
JOBS ?= 2
FUZZ_SECONDS ?= 60
SYMPATH = $(BUILD)/bin/sympath

.PHONY: all deps build build-san check fuzz demo bench bench-unit bench-data bench-scale clean

all: build

# Install what is missing (scripts/install-deps.sh is idempotent and quiet when all is there).
deps:
	@command -v clang-14 >/dev/null && command -v clang-format-14 >/dev/null && command -v llvm-config-14 >/dev/null && command -v llvm-link-14 >/dev/null && \
	  command -v cmake >/dev/null && command -v mpirun >/dev/null && command -v mpicc >/dev/null && command -v gcovr >/dev/null && command -v jq >/dev/null && \
	  test -f /usr/include/z3.h && test -f /usr/include/cmocka.h && test -f /usr/include/sqlite3.h && test -f /usr/include/pg_query.h && command -v sqlite3 >/dev/null && \
	  test -f /usr/include/postgresql/libpq-fe.h && test -x /usr/lib/postgresql/15/bin/initdb && \
	  test -f /usr/lib/llvm-14/include/clang-c/Index.h && python3 -c "import jsonschema" 2>/dev/null && \
	  ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 || sh scripts/install-deps.sh

build: deps
	@test -f $(BUILD)/CMakeCache.txt || cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

build-san: deps
	@test -f $(BUILD_SAN)/CMakeCache.txt || CC=clang-14 cmake -S . -B $(BUILD_SAN) -DCMAKE_BUILD_TYPE=Debug \
	  -DSYMPATH_SANITIZE=ON >/dev/null
	cmake --build $(BUILD_SAN) -j $(JOBS)

# Every test of the ordinary build, then in the sanitizer build the unit tests, a fast subset of the
# end-to-end tests and a short run of each fuzz target (ctest label "san"); skipped tests are listed last.
check: build build-san
	@rc=0; \
	(cd $(BUILD) && ctest --output-on-failure -j $(JOBS)) | tee $(BUILD)/check.log; [ $${PIPESTATUS[0]} -eq 0 ] || rc=1; \
	echo "--- sanitizer build ($(BUILD_SAN)): unit tests, fast end-to-end tests, fuzz smoke runs"; \
	(cd $(BUILD_SAN) && ctest --output-on-failure -j $(JOBS) -L san) | tee $(BUILD_SAN)/check.log; [ $${PIPESTATUS[0]} -eq 0 ] || rc=1; \
	skipped=$$(sed -n 's/^ *[0-9]*\/[0-9]* Test *#[0-9]*: \([^ ]*\) .*Skipped.*/\1/p' $(BUILD)/check.log | sort -u; \
	           sed -n 's/^ *[0-9]*\/[0-9]* Test *#[0-9]*: \([^ ]*\) .*Skipped.*/\1 (sanitizer build)/p' $(BUILD_SAN)/check.log | sort -u); \
	if [ -n "$$skipped" ]; then echo "--- skipped tests (each printed why above):"; echo "$$skipped" | sed 's/^/  /'; fi; \
	exit $$rc

# each fuzz target for FUZZ_SECONDS over its seeds and regression inputs (scripts/fuzz.sh)
fuzz: build-san
	bash scripts/fuzz.sh $(BUILD_SAN)/fuzz $(FUZZ_SECONDS)

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

bench-scale: build
	sh bench/scale.sh 60s

clean:
	rm -rf $(BUILD) $(BUILD_SAN) demo-out
