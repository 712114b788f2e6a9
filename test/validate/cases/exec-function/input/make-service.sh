#!/bin/sh
# A generator: prints a Service whose port is not a number.
cat > /dev/null
cat <<'OUT'
apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: Service
  metadata:
    name: generated
  spec:
    ports:
    - port: lots
OUT
