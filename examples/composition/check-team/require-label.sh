#!/bin/sh
# RequireLabel: fails, naming the resource, when an item lacks the label spec.label. Like
# java-app.sh it relies on the layout kustomize-ts prints: sorted keys, items at two spaces.
input=$(cat)
label=$(printf '%s\n' "$input" | sed -n 's/^    label: //p' | head -n 1)
printf '%s\n' "$input" | awk -v label="$label" '
/^items:/ { inItems = 1 }
inItems && /^- / { check(); kind = ""; name = ""; has = 0; seen = 1 }
inItems && /^  kind: / { kind = $2 }
inItems && /^    name: / && !name { name = $2 }
inItems && $0 ~ "^      " label ": " { has = 1 }
/^kind: ResourceList$/ { check(); seen = 0 }
function check() { if (seen && !has) { print kind "/" name " has no " label " label" > "/dev/stderr"; bad = 1 } }
END { exit bad }
'
status=$?
[ $status -eq 0 ] && printf '%s\n' "$input"
exit $status
