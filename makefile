# OpenBench convention: `make EXE=<name>` builds the engine and places the
# binary at <name> beside this makefile.
#   EVALFILE=<path>  embed that network instead of the committed one
#                    (build.rs checks it as it checks the committed one)
#   TUNE=1           a tuning build: every search parameter is a UCI spin
#                    option and `kiln spsa` prints OpenBench SPSA input
EXE ?= kiln
EVALFILE ?=
TUNE ?=
FEATURES := $(if $(filter-out 0,$(TUNE)),--features tune,)

.PHONY: all clean
all:
	EVALFILE="$(EVALFILE)" cargo build --release $(FEATURES)
	cp $(or $(CARGO_TARGET_DIR),target)/release/kiln $(EXE)

clean:
	cargo clean
