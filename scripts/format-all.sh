#!/bin/sh
# Formats the whole tree with Biome (biome.json: print width 120, the tree's existing quotes, semicolons and indent;
# fixtures, goldens, generated and vendored files are excluded there). Run once, on main, when no other change is in
# flight; then `npm test` checks formatting everywhere (see the "lint" script).
set -eu
cd "$(dirname "$0")/.."
npx biome format --write .
