#!/bin/sh
# Makes the build context of deploy/image/Containerfile: CONTEXT/rootfs, the whole file system
# of the image. Run it on the machine that ran `npm pack` (Linux, Node 20 or newer on the PATH,
# /bin/busybox from Debian's busybox-static): the image gets this machine's `node` and the
# libraries `ldd` says it loads, at the paths they have here, so it runs on the same
# architecture only. The package's bundles (dist/src/kustomize-ts*.cjs) hold its dependencies,
# so nothing is installed from the registry; their V8 code caches, written by `npm run build`
# with this same node, stay valid in the image.
#   usage: make-context.sh CONTEXT PACKAGE.tgz
set -eu
[ $# -eq 2 ] || { echo "usage: $0 CONTEXT PACKAGE.tgz" >&2; exit 2; }
context=$1
package=$2
root=$context/rootfs
busybox=/bin/busybox
[ -x "$busybox" ] || { echo "$0: $busybox is missing (apt-get install busybox-static)" >&2; exit 1; }
rm -rf "$root"
mkdir -p "$root/usr/local/bin" "$root/bin" "$root/etc" "$root/opt" "$root/repo" \
  "$root/home/argocd/cmp-server/config" "$root/home/argocd/cmp-server/plugins"
mkdir -m 1777 "$root/tmp"

# A program and, when it is linked dynamically, every library (and the loader) ldd lists for it.
copy_program() {
  cp -L "$1" "$root$2"
  # ldd fails on a static program (busybox-static): it has nothing more to copy
  libraries=$(ldd "$1" 2>/dev/null | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^\//) print $i }') || return 0
  for library in $libraries; do
    mkdir -p "$root$(dirname "$library")"
    cp -L "$library" "$root$library"
  done
}

copy_program "$(command -v node)" /usr/local/bin/node
copy_program "$busybox" /bin/busybox
for applet in $("$busybox" --list); do
  [ "$applet" = busybox ] || ln -s busybox "$root/bin/$applet"
done

tar -xzf "$package" -C "$root/opt"
mv "$root/opt/package" "$root/opt/kustomize-ts"
chmod 0755 "$root/opt/kustomize-ts/bin/kustomize-ts.js"
ln -s /opt/kustomize-ts/bin/kustomize-ts.js "$root/usr/local/bin/kustomize-ts"

# 65532 runs the server (deploy/deployment.yaml); 999 is the user Argo CD requires of a plugin sidecar
cat > "$root/etc/passwd" <<'PASSWD'
root:x:0:0:root:/root:/sbin/nologin
argocd:x:999:999:argocd:/home/argocd:/bin/sh
kustomize-ts:x:65532:65532:kustomize-ts:/tmp:/sbin/nologin
nobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin
PASSWD
cat > "$root/etc/group" <<'GROUP'
root:x:0:
argocd:x:999:
kustomize-ts:x:65532:
nogroup:x:65534:
GROUP
