#!/usr/bin/env bash
# Rebuilds the font subsets in fonts/ that the board renderer embeds.
#
# Needs Debian's fonts-noto-core (the source fonts) and fontTools (pyftsubset):
#   apt-get install -y fonts-noto-core && pip install fonttools
# To draw more characters, add their ranges below, run this, and commit the
# new subsets. The renderer draws any character missing from a subset as the
# font's empty-box glyph.
set -euo pipefail

src=${NOTO_DIR:-/usr/share/fonts/truetype/noto}
out="$(dirname "$0")/../../fonts"

# Chess pieces (U+2654..265F), card suits (U+2660..2667), playing cards
# (U+1F0A0..1F0FF).
pyftsubset "$src/NotoSansSymbols2-Regular.ttf" \
    --unicodes="U+2654-265F,U+2660-2667,U+1F0A0-1F0FF" \
    --no-hinting --layout-features='' \
    --output-file="$out/NotoSansSymbols2-Chess.ttf"

# Text: Latin (ASCII, Latin-1, Extended-A and -B), Greek, Cyrillic, general
# punctuation, the euro sign, arrows, minus, check and cross marks; kerning kept.
pyftsubset "$src/NotoSans-Bold.ttf" \
    --unicodes="U+0020-007E,U+00A0-024F,U+0370-03FF,U+0400-04FF,U+2000-206F,U+20AC,U+2190-2193,U+2212,U+2713,U+2717" \
    --no-hinting --layout-features='kern' \
    --output-file="$out/NotoSans-Bold-Subset.ttf"
