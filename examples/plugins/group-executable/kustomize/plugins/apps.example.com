#!/bin/sh
# A plugin of the generators and transformers KEP: one executable for the API group
# apps.example.com, at $XDG_CONFIG_HOME/kustomize/plugins/apps.example.com.
#
#   generate:  stdin holds the group's configs from `generators:`; prints a Deployment and a
#              Service for each WebApp config.
#   transform: stdin holds the group's configs, then every resource; prints the resources, each
#              Deployment given the `team` annotation of the configs.
#   anything else: exit 127, "not supported".
#
# A real plugin would use a YAML library; this one relies on the layout kustomize-ts prints
# (documents separated by `---`, keys sorted, two-space indents).
case "$1" in
generate)
  awk '
    function emit() {
      if (name == "") return
      printf "%sapiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: %s\nspec:\n  replicas: %s\n  selector:\n    matchLabels:\n      app: %s\n  template:\n    metadata:\n      labels:\n        app: %s\n    spec:\n      containers:\n      - name: %s\n        image: %s\n        ports:\n        - containerPort: %s\n", (n++ ? "---\n" : ""), name, replicas, name, name, name, image, port
      printf "---\napiVersion: v1\nkind: Service\nmetadata:\n  name: %s\nspec:\n  selector:\n    app: %s\n  ports:\n  - port: 80\n    targetPort: %s\n", name, name, port
      name = ""
    }
    /^---$/ { emit() }
    /^  name: / { name = $2 }
    /^  image: / { image = $2 }
    /^  port: / { port = $2 }
    /^  replicas: / { replicas = $2 }
    END { emit() }'
  ;;
transform)
  awk '
    BEGIN { RS = "---\n"; ORS = "" }
    /^apiVersion: apps\.example\.com\// { if (match($0, /\n  team: [^\n]*/)) team = substr($0, RSTART + 8, RLENGTH - 8); next }
    {
      if ($0 ~ /\nkind: Deployment\n/) sub(/\nmetadata:\n/, "\nmetadata:\n  annotations:\n    team: " team "\n")
      print (n++ ? "---\n" : "") $0
    }'
  ;;
*)
  exit 127
  ;;
esac
