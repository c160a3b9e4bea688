# survey: `make run` to start the app, `make test` to run every test.
# GNU make. Other targets: deps, build, bench, clean.

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := build

# Extra arguments for the app, e.g. make run ARGS="--dir /tmp/x --doc Field"
ARGS ?=

# curses draws wide characters blank under the C locale, so make sure the locale in effect
# (LC_ALL, else LC_CTYPE, else LANG) is UTF-8; C.UTF-8 ships with glibc.
effective_locale := $(or $(LC_ALL),$(LC_CTYPE),$(LANG))
ifeq ($(strip $(foreach s,UTF-8 utf-8 UTF8 utf8,$(findstring $(s),$(effective_locale)))),)
  export LANG := C.UTF-8
  export LC_CTYPE := C.UTF-8
  ifneq ($(LC_ALL),)
    export LC_ALL := C.UTF-8
  endif
endif

# Debian packages needed, each with the command that shows it is present.
#   libncurses-dev: the ncursesw headers and pkg-config file the CNcurses module builds with
#   pkg-config:     how SwiftPM finds ncursesw
#   tmux:           the real terminal the end-to-end tests drive the app in
#   python3:        plistlib, which the tests use to read what the app wrote
check_packages = missing=(); \
  { command -v pkg-config && pkg-config --exists ncursesw; } >/dev/null 2>&1 \
    || dpkg -s libncurses-dev >/dev/null 2>&1 || missing+=(libncurses-dev); \
  command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config); \
  command -v tmux >/dev/null 2>&1 || missing+=(tmux); \
  command -v python3 >/dev/null 2>&1 || missing+=(python3)

.PHONY: deps build run test bench clean

deps:
	@if ! command -v swift >/dev/null 2>&1; then \
	  echo "make deps: 'swift' is not on PATH." >&2; \
	  echo "  Install Swift 6.3 or later for Linux from https://www.swift.org/install/linux/" >&2; \
	  echo "  and put its usr/bin folder on PATH." >&2; \
	  exit 1; \
	fi
	@$(check_packages); \
	if [ $${#missing[@]} -eq 0 ]; then exit 0; fi; \
	export DEBIAN_FRONTEND=noninteractive; \
	if ! command -v apt-get >/dev/null 2>&1; then \
	  echo "make deps: missing $${missing[*]}, and there is no apt-get to install them with." >&2; \
	  echo "  Install the equivalent packages with your system's package manager." >&2; \
	  exit 1; \
	elif [ "$$(id -u)" -eq 0 ]; then \
	  echo "make deps: installing $${missing[*]}" >&2; \
	  apt-get update -qq && apt-get install -y -qq --no-install-recommends "$${missing[@]}"; \
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then \
	  echo "make deps: installing $${missing[*]} with sudo" >&2; \
	  sudo -n apt-get update -qq && sudo -n env DEBIAN_FRONTEND=noninteractive \
	    apt-get install -y -qq --no-install-recommends "$${missing[@]}"; \
	else \
	  echo "make deps: missing $${missing[*]}. Install them with:" >&2; \
	  echo "  sudo apt-get install -y $${missing[*]}" >&2; \
	  exit 1; \
	fi; \
	$(check_packages); \
	if [ $${#missing[@]} -ne 0 ]; then \
	  echo "make deps: still missing after installing: $${missing[*]}" >&2; exit 1; \
	fi

build: deps
	swift build

run: build
	.build/debug/survey $(ARGS)

# SURVEY_BIN points the end-to-end tests at the binary just built, so they drive the real app.
test: deps
	swift build --build-tests
	@# XCTest only: no suite uses Swift Testing, whose "0 tests" line would close the log.
	@# The last line is a plain "N passed, N failed" summary of XCTest's count.
	@# The benchmark harness runs once on small documents so it cannot rot; no time is checked.
	"$$(swift build --show-bin-path)/survey-bench" --quick > .build/bench-quick.log
	@grep -qE '^ +1000 .* ms .* MB .* ms .* MB' .build/bench-quick.log \
	  || { cat .build/bench-quick.log; echo "make test: survey-bench --quick printed no load table" >&2; exit 1; }
	SURVEY_BIN="$$(swift build --show-bin-path)/survey" swift test --skip-build --disable-swift-testing \
	  2>&1 | tee .build/test.log
	@# A test that cannot run here (no tmpfs mount) prints a line starting "SKIPPED " and
	@# returns; it is counted as skipped, not passed.
	@awk '/^\t Executed [0-9]+ tests?, with [0-9]+ failures?/ { n = $$2; f = $$5 } /^SKIPPED / { s++ } \
	  END { if (n == "") exit 1; printf "%d passed, %d failed, %d skipped\n", n - f - s, f, s }' .build/test.log

# Timings and memory on generated documents (100 to 10,000 records), and whole-document loads
# of 10,000 to 1,000,000 records, old (Foundation) and new (scanner) side by side, in a release
# build. BENCH_ARGS="--load-sizes 10000,100000" skips the minute-long million-record loads.
BENCH_ARGS ?=
bench: deps
	swift build -c release --product survey-bench
	"$$(swift build -c release --show-bin-path)/survey-bench" $(BENCH_ARGS)

clean:
	rm -rf .build
