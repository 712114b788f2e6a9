import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/**
 * Pushes a local image to its (plain HTTP, loopback) registry; returns the manifest digest the
 * registry has, as podman reports it. The engine is then given the image by that digest too
 * (`podman pull NAME@DIGEST`), as an engine that pulled it from there has it.
 */
export function pushImage(tag: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'kts-push-'));
  execFileSync('podman', ['push', '-q', '--tls-verify=false', '--digestfile', join(dir, 'digest'), tag], { stdio: ['ignore', 'ignore', 'inherit'] });
  const digest = readFileSync(join(dir, 'digest'), 'utf8').trim();
  rmSync(dir, { recursive: true });
  execFileSync('podman', ['pull', '-q', '--tls-verify=false', `${imageName(tag)}@${digest}`], { stdio: ['ignore', 'ignore', 'inherit'] });
  return digest;
}

/** An image's name without its tag. */
export function imageName(tag: string): string {
  return tag.slice(0, tag.lastIndexOf(':'));
}
