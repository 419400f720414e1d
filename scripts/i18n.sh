#!/usr/bin/env bash
# Message catalogs: extract the messages from the code, merge them into each language's .po file,
# and compile the .mo files that ship with the package. Run after changing player-facing texts,
# then translate what is new (empty msgstr or "fuzzy") in src/parlor/i18n/locale/*/LC_MESSAGES/.
# Two domains: "parlor" (events, prompts, menus, CLI help: _, N_, ngettext) and "errors" (the
# typed errors' messages, marked with parlor.core.errors.E_).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
LOCALE=src/parlor/i18n/locale
extract() { # domain, keyword options...
    local domain=$1
    shift
    "$PY" -m babel.messages.frontend extract -F babel.cfg "$@" \
        --no-location --sort-output --project parlor --copyright-holder 'Parlor developers' \
        -o "$LOCALE/$domain.pot" src/parlor
}
extract parlor -k N_ -k ngettext:1,2
extract errors --no-default-keywords -k E_
for domain in parlor errors; do
    for lang in en es da; do
        po=$LOCALE/$lang/LC_MESSAGES/$domain.po
        if [ -f "$po" ]; then
            "$PY" -m babel.messages.frontend update -i "$LOCALE/$domain.pot" -o "$po" -l "$lang" \
                -D "$domain" --no-fuzzy-matching --ignore-obsolete
        else
            "$PY" -m babel.messages.frontend init -i "$LOCALE/$domain.pot" -o "$po" -l "$lang" \
                -D "$domain"
        fi
    done
    "$PY" -m babel.messages.frontend compile -d "$LOCALE" -D "$domain" --use-fuzzy
done
