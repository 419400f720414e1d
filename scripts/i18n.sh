#!/usr/bin/env bash
# Message catalogs: extract the messages from the code, merge them into each language's .po file,
# and compile the .mo files that ship with the package. Run after changing player-facing texts,
# then translate what is new (empty msgstr or "fuzzy") in src/parlor/i18n/locale/*/LC_MESSAGES/.
# Two domains: "parlor" (the Python code) and "web" (the browser page, src/parlor/web/static).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
LOCALE=src/parlor/i18n/locale
BABEL="$PY -m babel.messages.frontend"

merge() {  # merge DOMAIN's template into each language and compile it
    local domain=$1
    for lang in en es da; do
        po=$LOCALE/$lang/LC_MESSAGES/$domain.po
        if [ -f "$po" ]; then
            $BABEL update -i "$LOCALE/$domain.pot" -o "$po" -l "$lang" -D "$domain" \
                --no-fuzzy-matching --ignore-obsolete
        else
            $BABEL init -i "$LOCALE/$domain.pot" -o "$po" -l "$lang" -D "$domain"
        fi
    done
    $BABEL compile -d "$LOCALE" -D "$domain" --use-fuzzy
}

$BABEL extract -F babel.cfg -k N_ -k ngettext:1,2 \
    --no-location --sort-output --project parlor --copyright-holder 'Parlor developers' \
    -o "$LOCALE/parlor.pot" src/parlor
merge parlor
# the page's words: t("...") translates, N_("...") marks a word translated later
$BABEL extract -F babel-web.cfg --no-default-keywords -k t -k N_ \
    --no-location --sort-output --project parlor --copyright-holder 'Parlor developers' \
    -o "$LOCALE/web.pot" src/parlor/web/static
merge web
