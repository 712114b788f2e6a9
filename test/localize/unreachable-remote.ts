import type { RemoteSource } from '../../src/load/remote/remote-source.js';

/** A remote source that fails on use: a localized copy must build without one. */
export const unreachable: RemoteSource = {
  fetchFile: (url) => Promise.reject(new Error(`network used for ${url}`)),
  clone: (spec) => Promise.reject(new Error(`network used for ${spec.raw}`)),
  pullTree: (ref) => Promise.reject(new Error(`network used for ${ref.raw}`)),
  pullLayer: (ref) => Promise.reject(new Error(`network used for ${ref.raw}`)),
  cleanup: () => {},
};
