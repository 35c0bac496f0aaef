#!/bin/sh
# Refreshes web/vendor/ from the npm packages named in package.json (run
# `npm ci` first). A maintainer's tool: the cargo build never runs it and
# never needs npm; what it writes is committed and embedded as it is.
#
# cm-chessboard (MIT): only the modules and styles the page imports. Its
# piece sprites (CC BY-SA, CC BY-NC-SA) and marker sprite (CC BY-SA) are
# not copied: web/pieces.svg and web/markers.svg are Kiln's own.
#
# One change is made to the copy: the page is served with the CSP
# `default-src 'self'`, which refuses style attributes, so the two places
# that set one with setAttribute("style", ...) set it through the CSSOM
# (`.style.cssText = ...`), which the CSP allows. The check at the end
# fails if any such call is left.
set -eu
cd "$(dirname "$0")/../.."
from=node_modules/cm-chessboard
to=web/vendor/cm-chessboard
[ -d "$from" ] || { echo "error: $from is missing: run npm ci" >&2; exit 1; }
rm -rf "$to"
for file in \
    src/Chessboard.js \
    src/model/ChessboardState.js \
    src/model/Extension.js \
    src/model/Position.js \
    src/view/ChessboardView.js \
    src/view/PositionAnimationsQueue.js \
    src/view/VisualMoveInput.js \
    src/lib/Svg.js \
    src/lib/Utils.js \
    src/extensions/markers/Markers.js \
    src/extensions/arrows/Arrows.js \
    src/extensions/promotion-dialog/PromotionDialog.js \
    assets/chessboard.css \
    assets/extensions/arrows/arrows.css \
    assets/extensions/arrows/arrows.svg \
    assets/extensions/promotion-dialog/promotion-dialog.css
do
    mkdir -p "$to/$(dirname "$file")"
    # Source-map comments name files that are not shipped.
    grep -v 'sourceMappingURL=' "$from/$file" > "$to/$file"
done
cp "$from/LICENSE" "$to/LICENSE.txt"
node -e 'console.log(require("./'"$from"'/package.json").version)' > "$to/VERSION.txt"
# The CSP change (see above).
sed -i \
    -e 's/\.setAttribute("style", *\(.*\))$/.style.cssText = \1/' \
    -e 's/\.setAttribute("style",$/.style.cssText = (/' \
    "$to/src/view/VisualMoveInput.js"
if grep -rn 'setAttribute("style"' "$to"; then
    echo "error: a style attribute is still set in $to (the page's CSP refuses it)" >&2
    exit 1
fi
echo "web/vendor/cm-chessboard: version $(cat "$to/VERSION.txt")"
