# survey: `make run` to start the app, `make test` to run every test.
# GNU make. Other targets: deps, build, bench, foundation-links, clean, and for installing:
#   make dist                       the self-contained release binary, man page and completions
#   make install [PREFIX=/usr/local] [DESTDIR=]   and   make uninstall (same variables)
#   make deb                        survey_VERSION_ARCH.deb, for machines without Swift

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
#   zlib1g-dev:     zlib, which reads .xlsx workbooks (XLSForm questionnaires)
#   libssl-dev:     OpenSSL's libcrypto, every cryptographic primitive (digest(), list files'
#                   SHA-256); the binary then needs libssl3
#   binutils:       strip and readelf, for the release binary and the .deb's Depends
#   man-db, zsh, bash-completion: the tests render the man page and load the completions
#   libpq-dev:      libpq's header, which the CPostgres module builds with (the binary loads
#                   libpq5 only when it syncs)
#   postgresql:     the throwaway server the database tests start (initdb, pg_ctl)
check_packages = missing=(); \
  { command -v pkg-config && pkg-config --exists ncursesw; } >/dev/null 2>&1 \
    || dpkg -s libncurses-dev >/dev/null 2>&1 || missing+=(libncurses-dev); \
  command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config); \
  command -v tmux >/dev/null 2>&1 || missing+=(tmux); \
  command -v python3 >/dev/null 2>&1 || missing+=(python3); \
  dpkg -s zlib1g-dev >/dev/null 2>&1 || missing+=(zlib1g-dev); \
  [ -f /usr/include/openssl/evp.h ] || missing+=(libssl-dev); \
  command -v readelf >/dev/null 2>&1 || missing+=(binutils); \
  command -v man >/dev/null 2>&1 || missing+=(man-db); \
  command -v zsh >/dev/null 2>&1 || missing+=(zsh); \
  [ -f /usr/share/bash-completion/bash_completion ] || missing+=(bash-completion); \
  [ -f /usr/include/postgresql/libpq-fe.h ] || missing+=(libpq-dev); \
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1 || missing+=(postgresql)

.PHONY: deps test-deps build run test bench bench-deps foundation-links clean dist install uninstall deb FORCE

# The version is written once, in Sources/survey/BuildInfo.swift.
VERSION := $(shell sed -n 's/^ *static let version = "\(.*\)"/\1/p' Sources/survey/BuildInfo.swift)
ARCH := $(shell dpkg --print-architecture 2>/dev/null || uname -m)
# The commit for `survey --version`: git, else .commit (filled in by `git archive`), else unknown.
COMMIT := $(shell { git rev-parse --short=12 HEAD 2>/dev/null \
  && { git diff-index --quiet HEAD -- 2>/dev/null || echo -dirty; }; } | tr -d '\n' \
  || true)
ifeq ($(COMMIT),)
  COMMIT := $(or $(shell grep -v Format .commit 2>/dev/null | cut -c1-12),unknown)
endif

# GNU install directories; PREFIX and prefix are the same thing.
PREFIX ?= /usr/local
prefix ?= $(PREFIX)
bindir ?= $(prefix)/bin
datarootdir ?= $(prefix)/share
man1dir ?= $(datarootdir)/man/man1
docdir ?= $(datarootdir)/doc/survey
bashcompdir ?= $(datarootdir)/bash-completion/completions
zshcompdir ?= $(datarootdir)/zsh/site-functions
INSTALL ?= install

# The release build: the Swift runtime and Foundation linked in statically, in its own
# scratch folder so it never invalidates the debug build or `make bench`.
DIST := .build/dist
OUT := $(DIST)/out
RELEASE_BIN := $(DIST)/release/survey
COMMIT_SWIFT := Sources/survey/BuildCommit.generated.swift
DIST_FILES := $(OUT)/survey $(OUT)/survey.1 $(OUT)/survey.bash $(OUT)/_survey
# The guides the README links, installed beside it.
GUIDES := $(sort $(wildcard docs/*.md))
# The README's first questionnaire, so the quick start works from the .deb too.
EXAMPLES := Examples/household.csv
DEB := survey_$(VERSION)_$(ARCH).deb
DEB_ROOT := .build/deb/survey_$(VERSION)_$(ARCH)
SOURCES := $(shell find Sources CNcurses -type f 2>/dev/null) Package.swift

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

# The field's reference tools, the tests' oracles: pyxform (what an XLSForm means) and
# openpyxl (writing .xlsx fixtures); pyte, the terminal emulator the benchmark harness
# reads the screen with. From PyPI. And Java (Debian's default-jre-headless), which runs ODK
# Validate, the JavaRosa checker pyxform bundles, that says whether ODK accepts a form.
test-deps: deps
	@python3 -c 'import pyxform, openpyxl, pyte' 2>/dev/null || { \
	  echo "make test-deps: installing pyxform, openpyxl and pyte with pip" >&2; \
	  python3 -m pip install --quiet --disable-pip-version-check pyxform openpyxl pyte; }
	@command -v java >/dev/null 2>&1 || { \
	  echo "make test-deps: installing default-jre-headless (ODK Validate runs on Java)" >&2; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  if [ "$$(id -u)" -eq 0 ]; then apt-get update -qq && apt-get install -y -qq --no-install-recommends default-jre-headless; \
	  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then \
	    sudo -n apt-get update -qq && sudo -n env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends default-jre-headless; \
	  else echo "make test-deps: Java is missing: sudo apt-get install -y default-jre-headless" >&2; exit 1; fi; }

build: deps
	swift build

run: build
	.build/debug/survey $(ARGS)

# SURVEY_BIN points the end-to-end tests at the binary just built, so they drive the real app;
# SURVEY_DEB at the package the SurveyPackageTests check (contents, Depends, ldd, running it
# extracted with no toolchain, man page, completions, make install/uninstall).
test: test-deps $(DEB)
	swift build --build-tests
	@# XCTest only: no suite uses Swift Testing, whose "0 tests" line would close the log.
	@# The last line is a plain "N passed, N failed, N skipped" summary of XCTest's count.
	@# The benchmark harness runs once on small documents so it cannot rot; no time is checked.
	"$$(swift build --show-bin-path)/survey-bench" --quick > .build/bench-quick.log
	@grep -qE '^ +1000 .* ms .* MB .* ms .* MB' .build/bench-quick.log \
	  || { cat .build/bench-quick.log; echo "make test: survey-bench --quick printed no load table" >&2; exit 1; }
	@grep -qE '^  form ↓ +key +update [0-9.]+ / [0-9.]+ +frame [0-9.]+ / [0-9.]+' .build/bench-quick.log \
	  || { cat .build/bench-quick.log; echo "make test: survey-bench --quick printed no form table" >&2; exit 1; }
	@# The side-by-side harness too: the debug binary through a pseudo-terminal on 1,000 records
	@# (with abook when it is installed), once; it must finish and print its table, nothing more.
	PYTHONIOENCODING=utf-8 python3 Benchmarks/tui_side_by_side.py --quick \
	  --survey "$$(swift build --show-bin-path)/survey" > .build/side-quick.log \
	  || { cat .build/side-quick.log; echo "make test: tui_side_by_side.py --quick failed" >&2; exit 1; }
	@grep -q '^list ↓: key to redraw done ' .build/side-quick.log \
	  || { cat .build/side-quick.log; echo "make test: tui_side_by_side.py --quick printed no table" >&2; exit 1; }
	SURVEY_BIN="$$(swift build --show-bin-path)/survey" SURVEY_DEB="$(CURDIR)/$(DEB)" SURVEY_COMMIT="$(COMMIT)" \
	  swift test --skip-build --disable-swift-testing \
	  2>&1 | tee .build/test.log
	@# A test that cannot run here (no root to mount a tmpfs, no man or zsh, no .deb) throws
	@# XCTSkip; XCTest counts it in its own "with K tests skipped", and names it on a
	@# "Test Case '…' skipped" line after the reason. With CI=true (.ci/run sets it) a skip fails
	@# the run: there every tool is installed, so a skip means a test did not run that must.
	@awk 'function number(pattern) { return match(line, pattern) ? substr(line, RSTART, RLENGTH) + 0 : 0 } \
	  /^\t Executed [0-9]+ tests?, with / { line = $$0; n = $$2; f = number("[0-9]+ failures?"); s = number("[0-9]+ tests? skipped") } \
	  / : Test skipped - / { why[++k] = $$0 } \
	  END { if (n == "") exit 1; printf "%d passed, %d failed, %d skipped\n", n - f - s, f, s; \
	        if (s > 0 && (ENVIRON["CI"] == "true" || ENVIRON["CI"] == "1")) { \
	          print "make test: CI=true, and no test may be skipped here:" > "/dev/stderr"; \
	          for (i = 1; i <= k; i++) print "  " why[i] > "/dev/stderr"; exit 1 } }' .build/test.log

# Timings and memory on generated documents (100 to 10,000 records), and whole-document loads
# of 10,000 to 1,000,000 records, old (Foundation) and new (scanner) side by side, in a release
# build. BENCH_ARGS="--load-sizes 10000,100000" skips the minute-long million-record loads.
# A generated 500-question XLSForm too: reading and checking it (.csv, and .xlsx when python3
# has openpyxl), its rules per committed answer, and the form's keys on 1,000 surveys answering
# it; BENCH_ARGS=--form-only prints that alone.
# Then the release `survey` binary and abook (Debian's) through a pseudo-terminal on the same
# records, one table per size (1k, 10k, 100k and a million, as issue 20 asks; the million
# takes several minutes, BENCH_SIZES=1000,10000,100000 leaves it out): first frame showing
# data, keys, bytes, filter, commits, memory. BENCH_RUNS is how many fresh processes of each
# app per size (3, the issue's method).
BENCH_ARGS ?=
BENCH_SIZES ?= 1000,10000,100000,1000000
BENCH_RUNS ?= 3
# The side-by-side drives the binary `make install` and the .deb ship (the Swift runtime and
# Foundation linked in statically: it starts in half the time of the dynamically linked one).
bench: deps bench-deps $(RELEASE_BIN)
	swift build -c release --product survey-bench
	SURVEY_BIN="$(CURDIR)/$(RELEASE_BIN)" "$$(swift build -c release --show-bin-path)/survey-bench" $(BENCH_ARGS)
	PYTHONIOENCODING=utf-8 python3 Benchmarks/tui_side_by_side.py --survey "$(CURDIR)/$(RELEASE_BIN)" \
	  --sizes $(BENCH_SIZES) --runs $(BENCH_RUNS) --json .build/bench-side-by-side.json

# What only the side-by-side needs: abook to compare with, pyte to see when a screen shows data.
bench-deps:
	@if ! command -v abook >/dev/null 2>&1; then \
	  export DEBIAN_FRONTEND=noninteractive; \
	  if [ "$$(id -u)" -eq 0 ]; then apt-get update -qq && apt-get install -y -qq --no-install-recommends abook; \
	  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then \
	    sudo -n apt-get update -qq && sudo -n env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends abook; \
	  else echo "make bench: abook is missing: sudo apt-get install -y abook" >&2; exit 1; fi; \
	fi
	@python3 -c 'import pyte' 2>/dev/null || python3 -m pip install -q pyte \
	  || python3 -m pip install -q --break-system-packages pyte \
	  || { echo "make bench: pyte is missing: pip install pyte" >&2; exit 1; }

# Written only when the commit changed, so an unchanged tree does not rebuild.
$(COMMIT_SWIFT): FORCE
	@printf '// Written by make (gitignored): the commit for `survey --version`.\n#if SURVEY_BUILD_COMMIT\nlet generatedBuildCommit = "%s"\n#endif\n' \
	  '$(COMMIT)' > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv -f $@.tmp $@; fi

# libstdc++ is linked in too when its static archive is there (g++'s libstdc++-dev): the driver
# asks for `-lstdc++`, and a folder searched first holding only `libstdc++.a` answers it, so
# the dynamic loader no longer binds libstdc++'s 4,000 symbols at every start (DECISIONS).
STATIC_CXX := $(DIST)/static-cxx
CXX_ARCHIVE := $(shell $(CC) -print-file-name=libstdc++.a 2>/dev/null)
$(RELEASE_BIN): $(SOURCES) $(COMMIT_SWIFT) | deps
	@mkdir -p $(STATIC_CXX)
	@if [ -f "$(CXX_ARCHIVE)" ]; then ln -sf "$(CXX_ARCHIVE)" $(STATIC_CXX)/libstdc++.a; \
	  else rm -f $(STATIC_CXX)/libstdc++.a; echo "make dist: no libstdc++.a (g++): libstdc++ stays a shared library" >&2; fi
	swift build -c release --static-swift-stdlib --product survey --scratch-path $(DIST) -Xswiftc -DSURVEY_BUILD_COMMIT \
	  -Xswiftc -L -Xswiftc $(CURDIR)/$(STATIC_CXX)
	@touch $@

$(OUT)/survey: $(RELEASE_BIN)
	@mkdir -p $(OUT)
	strip -o $@ $<
	@# Every module imports FoundationEssentials only; one full-Foundation call would bring
	@# back CoreFoundation and ICU's 34 MB of data (its items are named icudt…). Refuse that.
	@if grep -q icudt $@; then rm -f $@; \
	  echo "make dist: the binary links ICU again; make foundation-links names the call" >&2; exit 1; fi
	@echo "survey: $$(stat -c %s $<) bytes, $$(stat -c %s $@) stripped"

$(OUT)/survey.1: $(OUT)/survey
	$< --man > $@
$(OUT)/survey.bash: $(OUT)/survey
	$< --completion bash > $@
$(OUT)/_survey: $(OUT)/survey
	$< --completion zsh > $@

dist: $(DIST_FILES)

# Which of our calls link full Foundation, and with it CoreFoundation and ICU's 34 MB of data,
# into the release binary: the release objects linked again with lld's --why-extract. None do
# today (make dist refuses a binary with ICU in it); this says which call brought it back.
foundation-links: $(RELEASE_BIN)
	python3 packaging/foundation-links.py $(DIST)/release/survey.product/Objects.LinkFileList

# Installs what `make dist` built; it builds it first when missing or out of date
# (so `make dist` as yourself, then `sudo make install`).
install: $(DIST_FILES)
	$(INSTALL) -d $(DESTDIR)$(bindir) $(DESTDIR)$(man1dir) $(DESTDIR)$(docdir)/docs $(DESTDIR)$(docdir)/examples \
	  $(DESTDIR)$(bashcompdir) $(DESTDIR)$(zshcompdir)
	$(INSTALL) -m 755 $(OUT)/survey $(DESTDIR)$(bindir)/survey
	$(INSTALL) -m 644 $(OUT)/survey.1 $(DESTDIR)$(man1dir)/survey.1
	$(INSTALL) -m 644 $(OUT)/survey.bash $(DESTDIR)$(bashcompdir)/survey
	$(INSTALL) -m 644 $(OUT)/_survey $(DESTDIR)$(zshcompdir)/_survey
	$(INSTALL) -m 644 README.md $(DESTDIR)$(docdir)/README.md
	$(INSTALL) -m 644 $(GUIDES) $(DESTDIR)$(docdir)/docs/
	$(INSTALL) -m 644 $(EXAMPLES) $(DESTDIR)$(docdir)/examples/

# Removes the files install wrote, and the doc folder that is survey's own.
uninstall:
	rm -f $(DESTDIR)$(bindir)/survey $(DESTDIR)$(man1dir)/survey.1 \
	  $(DESTDIR)$(bashcompdir)/survey $(DESTDIR)$(zshcompdir)/_survey $(DESTDIR)$(docdir)/README.md \
	  $(addprefix $(DESTDIR)$(docdir)/,$(GUIDES)) $(addprefix $(DESTDIR)$(docdir)/examples/,$(notdir $(EXAMPLES)))
	rmdir $(DESTDIR)$(docdir)/docs $(DESTDIR)$(docdir)/examples $(DESTDIR)$(docdir) 2>/dev/null || true

# The same files as `make install PREFIX=/usr` (zsh's Debian folder for completions), the
# man page gzipped as Debian does, owned by root, built with dpkg-deb alone.
deb: $(DEB)
$(DEB): $(DIST_FILES) README.md $(GUIDES) $(EXAMPLES) packaging/deb-control.sh
	rm -rf $(DEB_ROOT)
	$(MAKE) --no-print-directory install DESTDIR=$(CURDIR)/$(DEB_ROOT) PREFIX=/usr prefix=/usr \
	  zshcompdir=/usr/share/zsh/vendor-completions
	gzip -9n $(DEB_ROOT)/usr/share/man/man1/survey.1
	mkdir -p $(DEB_ROOT)/DEBIAN
	packaging/deb-control.sh $(DEB_ROOT) $(VERSION) $(ARCH) > $(DEB_ROOT)/DEBIAN/control
	dpkg-deb --root-owner-group -Zxz --build $(DEB_ROOT) $@

clean:
	rm -rf .build $(COMMIT_SWIFT) survey_*.deb
