/** The media types the OCI client reads and writes. */
export const MediaType = {
  ociManifest: 'application/vnd.oci.image.manifest.v1+json',
  ociIndex: 'application/vnd.oci.image.index.v1+json',
  dockerManifest: 'application/vnd.docker.distribution.manifest.v2+json',
  dockerManifestList: 'application/vnd.docker.distribution.manifest.list.v2+json',
  ociEmpty: 'application/vnd.oci.empty.v1+json',
  /** `flux push artifact`: the config blob of a Flux artifact */
  fluxConfig: 'application/vnd.cncf.flux.config.v1+json',
  /** `flux push artifact`: a tar.gz of the pushed directory, the artifact's one layer */
  fluxContent: 'application/vnd.cncf.flux.content.v1.tar+gzip',
  /** a generic tar.gz layer (ORAS, image layers), accepted for kustomize trees too */
  ociLayerTarGzip: 'application/vnd.oci.image.layer.v1.tar+gzip',
} as const;

/** What a manifest request accepts: single-artifact manifests only. */
export const MANIFEST_ACCEPT = [MediaType.ociManifest, MediaType.dockerManifest].join(', ');

/** What a container image's manifest request accepts: an image index (several platforms) too. */
export const IMAGE_MANIFEST_ACCEPT = [MediaType.ociIndex, MediaType.dockerManifestList, MANIFEST_ACCEPT].join(', ');
