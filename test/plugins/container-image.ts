import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A FROM-scratch image holding busybox and a script, built once per run. */
export function buildImage(tag: string, script: string): void {
  const dir = mkdtempSync(join(tmpdir(), 'kts-image-'));
  mkdirSync(join(dir, 'rootfs/bin'), { recursive: true });
  mkdirSync(join(dir, 'rootfs/etc'), { recursive: true });
  copyFileSync('/bin/busybox', join(dir, 'rootfs/bin/busybox'));
  writeFileSync(join(dir, 'rootfs/etc/passwd'), 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/sh\n');
  writeFileSync(join(dir, 'rootfs/etc/group'), 'root:x:0:\nnogroup:x:65534:\n');
  writeFileSync(join(dir, 'rootfs/fn.sh'), script);
  writeFileSync(join(dir, 'Containerfile'), 'FROM scratch\nCOPY rootfs/ /\nENTRYPOINT ["/bin/busybox", "sh", "/fn.sh"]\n');
  execFileSync('podman', ['build', '-q', '-t', tag, dir], { stdio: ['ignore', 'ignore', 'inherit'] });
}
