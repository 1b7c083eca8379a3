#!/bin/bash -eu
# Builds every cargo-fuzz target into $OUT, with its seeds beside it as
# $OUT/<target>_seed_corpus.zip. Run from the repository root: by
# ClusterFuzzLite and OSS-Fuzz (which set $OUT and $SANITIZER), and by
# .ci/fuzz with SANITIZER=none on stable Rust.
#
# The flags are the ones `cargo fuzz run` uses by default (release with
# debug assertions), so that after .ci/fuzz the none build is a cache hit.
# ClusterFuzzLite runs a copy in $SRC from the checkout (the WORKDIR).
if [ ! -f fuzz/Cargo.toml ]; then
  cd "$(dirname "$0")/.."
fi
: "${OUT:?set OUT to the directory the fuzzers go to}"
OUT=$(cd "$OUT" && pwd)
sanitizer=${SANITIZER:-address}

case "$sanitizer" in
  none | address | leak | memory | thread) flags=(-s "$sanitizer") ;;
  # coverage and the rest: the OSS-Fuzz cargo wrapper adds the flags.
  *) flags=() ;;
esac

targets=$(cargo fuzz list)
for target in $targets; do
  cargo fuzz build -O --debug-assertions "${flags[@]}" "$target"
done

triple=$(rustc -vV | sed -n 's/^host: //p')
built=${CARGO_TARGET_DIR:-$PWD/target}/$triple/release
for target in $targets; do
  cp "$built/$target" "$OUT/"
done

if ! command -v zip > /dev/null; then
  echo "build.sh: zip is not installed: no seed corpora copied" >&2
  exit 0
fi
for target in $targets; do
  if [ -d "corpus/fuzz/$target" ]; then
    rm -f "$OUT/${target}_seed_corpus.zip"
    (cd "corpus/fuzz/$target" && zip -q -r "$OUT/${target}_seed_corpus.zip" .)
  fi
done
