# OpenBench convention: `make EXE=<name>` builds the engine and places the
# binary at <name> beside this makefile.
EXE ?= kiln

.PHONY: all clean
all:
	cargo build --release
	cp target/release/kiln $(EXE)

clean:
	cargo clean
