#!/usr/bin/env bash
# Message catalogs: extract the messages from the code, merge them into each language's .po file,
# and compile the .mo files that ship with the package. Run after changing player-facing texts,
# then translate what is new (empty msgstr or "fuzzy") in src/parlor/i18n/locale/*/LC_MESSAGES/.
# Three domains: "parlor" (the Python code's texts: _, N_, ngettext), "errors" (the typed errors'
# messages, marked with parlor.core.errors.E_) and "web" (the browser page, src/parlor/web/static).
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
                --no-fuzzy-matching --ignore-obsolete --ignore-pot-creation-date
        else
            $BABEL init -i "$LOCALE/$domain.pot" -o "$po" -l "$lang" -D "$domain"
        fi
    done
    $BABEL compile -d "$LOCALE" -D "$domain" --use-fuzzy
}

extract() {  # extract DOMAIN's template; a template whose messages did not change keeps its
    # date, so that running this script on two branches does not make every header conflict
    local domain=$1 config=$2 source=$3
    shift 3
    local pot=$LOCALE/$domain.pot new
    new=$(mktemp)
    $BABEL extract -F "$config" "$@" --no-location --sort-output --project parlor \
        --copyright-holder 'Parlor developers' -o "$new" "$source"
    if [ -f "$pot" ] && diff -q <(grep -v '^"POT-Creation-Date:' "$pot") \
        <(grep -v '^"POT-Creation-Date:' "$new") >/dev/null; then
        rm "$new"
    else
        mv "$new" "$pot"
    fi
}

extract parlor babel.cfg src/parlor -k N_ -k ngettext:1,2
merge parlor
extract errors babel.cfg src/parlor --no-default-keywords -k E_
merge errors
# the page's words: t("...") translates, N_("...") marks a word translated later, tn("one",
# "many", n) has plural forms
extract web babel-web.cfg src/parlor/web/static --no-default-keywords -k t -k N_ -k tn:1,2
merge web
