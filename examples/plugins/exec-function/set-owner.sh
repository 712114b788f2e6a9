#!/bin/sh
# Adds an `owner` annotation (from the function config's spec.owner) to every item.
# A real function would use a YAML library; this one relies on the layout kustomize-ts prints:
# the ResourceList's items, then `functionConfig:`, with sorted keys.
input=$(cat)
owner=$(printf '%s\n' "$input" | sed -n 's/^    owner: //p')
printf '%s\n' "$input" | sed "s/^    annotations:$/    annotations:\n      owner: $owner/"
