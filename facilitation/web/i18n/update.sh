#!/usr/bin/env bash
# Re-extract the web front end's messages, fill Spanish from es.py, compile.
#   bash facilitation/web/i18n/update.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
PY=${PY:-.venv/bin/python}
ignores=()
for p in ".venv/*" "engine/*" "coinlab/*" "facilitation/reports/*" "facilitation/api/*" \
         "facilitation/management/*" "facilitation/migrations/*" "templates/reports/*" "templates/admin/*" \
         "templates/registration/*" "templates/base.html" "tests/*" "scripts/*" "benchmarks/*" \
         "staticfiles/*" "var/*" "docs/*" "test-artifacts/*" "facilitation/models.py" "facilitation/services.py" \
         "facilitation/selectors.py" "facilitation/eventlog.py" "facilitation/admin.py" "facilitation/errors.py" \
         "facilitation/tasks.py" "facilitation/apps.py" "facilitation/__init__.py"; do
  ignores+=(-i "$p")
done
"$PY" manage.py makemessages -l es -l en --no-obsolete "${ignores[@]}"
"$PY" -m facilitation.web.i18n.fill
"$PY" manage.py compilemessages -l es -l en -i .venv
