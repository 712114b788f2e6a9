#!/bin/sh
# JavaApplication: adds a Deployment and a Service running spec.application at spec.version to
# the resources it is given. A real function would use a YAML library; this one relies on the
# layout kustomize-ts prints a ResourceList in: sorted keys, so the function config (with its
# `spec:` fields at four spaces) comes before `items:`, and `kind: ResourceList` ends it.
input=$(cat)
field() { printf '%s\n' "$input" | sed -n "s/^    $1: //p" | head -n 1; }
application=$(field application)
version=$(field version)
name=${application##*/}
printf '%s\n' "$input" | awk -v name="$name" -v image="registry.example.com/$application:$version" '
/^items: \[\]$/ { print "items:"; next }
/^kind: ResourceList$/ {
  print "- apiVersion: apps/v1"
  print "  kind: Deployment"
  print "  metadata:"
  print "    name: " name
  print "    labels: {app: " name "}"
  print "  spec:"
  print "    selector: {matchLabels: {app: " name "}}"
  print "    template:"
  print "      metadata: {labels: {app: " name "}}"
  print "      spec:"
  print "        containers:"
  print "        - name: app"
  print "          image: " image
  print "- apiVersion: v1"
  print "  kind: Service"
  print "  metadata:"
  print "    name: " name
  print "    labels: {app: " name "}"
  print "  spec:"
  print "    selector: {app: " name "}"
  print "    ports: [{port: 80, targetPort: 8080}]"
}
{ print }'
