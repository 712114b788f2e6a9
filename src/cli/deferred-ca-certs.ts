import { readFileSync } from 'node:fs';
import type { ConnectionOptions, TLSSocket } from 'node:tls';

/**
 * The environment variable bin/kustomize-ts.js moves NODE_EXTRA_CA_CERTS to before it starts Node.
 *
 * Node 20 reads NODE_EXTRA_CA_CERTS while it starts, and to add those certificates it parses every
 * bundled root certificate too: about 60 ms on a 2-core machine, for every run, although most
 * builds never open a TLS connection (kubectl kustomize starts in about as long). The launcher
 * therefore starts Node with the variable empty, and {@link restoreDeferredCaCerts} gives the
 * certificates to the TLS connections this process opens, parsed only when the first one opens.
 */
const DEFERRED_CA_CERTS_ENV = 'KUSTOMIZE_TS_DEFERRED_CA_CERTS';

/**
 * Undoes the launcher's move: NODE_EXTRA_CA_CERTS is set back for child processes (git, helm,
 * plugins see the environment the user gave), and TLS connections opened without their own `ca`
 * trust Node's bundled roots plus the file's certificates, as they would have at start-up. A file
 * that cannot be read is reported at the first connection, as Node warns about it at start-up.
 */
export async function restoreDeferredCaCerts(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const file = env[DEFERRED_CA_CERTS_ENV];
  if (file === undefined) return;
  delete env[DEFERRED_CA_CERTS_ENV];
  env.NODE_EXTRA_CA_CERTS = file;
  // the default export, Node's own module object: the one undici and https call connect on
  const tls = (await import('node:tls')).default;
  let ca: string[] | undefined;
  const trusted = (): string[] => (ca ??= [...tls.rootCertificates, ...readExtraCerts(file)]);
  const connect = tls.connect;
  // Node's fetch (undici) and https both open their connections through tls.connect.
  (tls as { connect: typeof tls.connect }).connect = function (this: unknown, ...args: unknown[]) {
    const withCa = args.map((a) => {
      const options = typeof a === 'object' && a !== null ? (a as ConnectionOptions) : undefined;
      return options && options.ca === undefined && options.secureContext === undefined ? { ...options, ca: trusted() } : a;
    });
    return (connect as (...a: unknown[]) => TLSSocket).apply(this, withCa);
  } as typeof tls.connect;
}

/** The file's certificates (one PEM text), or none when it cannot be read: Node then warns and trusts its own roots only. */
function readExtraCerts(file: string): string[] {
  try {
    return [readFileSync(file, 'utf8')];
  } catch (e) {
    process.emitWarning(`Ignoring extra certs from \`${file}\`, load failed: ${(e as Error).message}`);
    return [];
  }
}
