#!/usr/bin/env bash
# Message catalogs: extract the messages from the code, merge them into each language's .po file,
# and compile the .mo files that ship with the package. Run after changing player-facing texts,
# then translate what is new (empty msgstr or "fuzzy") in src/parlor/i18n/locale/*/LC_MESSAGES/.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
LOCALE=src/parlor/i18n/locale
POT=$LOCALE/parlor.pot
"$PY" -m babel.messages.frontend extract -F babel.cfg -k N_ -k ngettext:1,2 \
    --no-location --sort-output --project parlor --copyright-holder 'Parlor developers' -o "$POT" src/parlor
for lang in en es da; do
    po=$LOCALE/$lang/LC_MESSAGES/parlor.po
    if [ -f "$po" ]; then
        "$PY" -m babel.messages.frontend update -i "$POT" -o "$po" -l "$lang" --no-fuzzy-matching \
            --ignore-obsolete
    else
        "$PY" -m babel.messages.frontend init -i "$POT" -o "$po" -l "$lang"
    fi
done
"$PY" -m babel.messages.frontend compile -d "$LOCALE" -D parlor --use-fuzzy
