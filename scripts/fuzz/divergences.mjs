// The deliberate divergences from kustomize (README, "Where it differs from kustomize") that a
// generated tree can reach, and how the comparison accounts for each.

/**
 * `buildMetadata: [managedByLabel]` writes the builder's own version into
 * `app.kubernetes.io/managed-by`: kubectl's kustomize writes `kustomize-<its version>`,
 * kustomize-ts `kustomize-ts-v<ours>`. kubectl's value is rewritten to ours before comparing.
 */
import { VERSION } from '../../dist/src/index.js';

export function normalizeKubectl(output) {
  return output.replace(/^(\s+app\.kubernetes\.io\/managed-by: )kustomize-\S+$/gm, `$1kustomize-ts-v${VERSION}`);
}

/*
 * Avoided by the generator rather than accounted for here:
 * - `labels: [{includeTemplates: true}]` on a StatefulSet: kustomize v5.5 (up to v5.8) labels its
 *   volumeClaimTemplates too; kustomize-ts follows kustomize's main branch, where that takes
 *   `includeVolumeClaimTemplates` (kustomize PR #5831), a field v5.5 rejects. fields.mjs's
 *   labelsEntry leaves includeTemplates off where a StatefulSet may be labelled.
 */

/*
 * - One YAML node for a label or annotation key a transformer creates at several places in a
 *   resource (kyaml's filtersutil.SetEntry makes one node per key and resource; creating a field
 *   links that node in, setting an existing field copies into it): when a later transformer or
 *   patch sets one of those places, kustomize changes them all (e.g. `labels` with
 *   includeSelectors in a base, then a metadata-only `labels` of the same key in an overlay:
 *   kustomize rewrites the selector too). kustomize-ts changes only the place it sets. The
 *   generator gives each label and annotation key one value per tree (fields.mjs, Vocabulary),
 *   none ending in a line break: kustomize trims a patch's text, so a block scalar ending a patch
 *   loses its last one, and the value a patch writes would differ from the one created.
 */

/*
 * - A value written as an unquoted date (`2001-12-14`) is a !!timestamp to kustomize, and a
 *   replacement into such a field keeps the tag: kustomize then fails to decode the new text
 *   as a timestamp. kustomize-ts reads timestamps as strings and writes the value. Into a field
 *   written as a plain `true` or number, a replacement's text that cannot have that tag fails in
 *   kustomize-ts at once, in kustomize only when the resource is next read as data: a generator
 *   merge or a patch that rewrites the field in between hides the error there. The generator
 *   writes dates, and the plain texts of patches (fields.mjs's patchValue), only where no
 *   replacement reads or writes (not into a ConfigMap's `setting`, nor env `MODE`).
 */

/*
 * - A date with a time of day written plain (`2001-12-14T21:59:43.10-05:00`) prints as Go's
 *   RFC 3339 form of the time (`…43.1-05:00`) in kustomize, except inside a collection written in
 *   flow style, such as every map and list of a JSON resource: kustomize writes the resource as
 *   YAML before printing it, yaml.v3 quotes a plain scalar holding `:` in flow context, and the
 *   text comes back a string as written. kustomize-ts does not keep collections' flow style and
 *   prints the time. Found by the 10,000-case run against 5.7.1 (seed 1, cases 8375, 8861: a
 *   patch writing such a value into a JSON resource). PLAIN_SCALARS has dates without a time.
 */

/*
 * - kustomize keeps its build state (name prefixes, origins…) in each resource's annotations,
 *   so mid-build every resource that went through a prefix, a suffix or `buildMetadata` has an
 *   annotations map: a field spec `metadata/annotations` with `create: false` (a `labels`
 *   entry's `fields`, say) then writes into it, where in kustomize-ts the resource has no map
 *   and nothing is written. The generator's `labels` fields never name metadata/annotations.
 */

/*
 * Followed, and reached by the patches' plain texts (fields.mjs's patchValue): kyaml's
 * FieldSetter double-quotes a string it creates whose text YAML 1.1 reads as no string (a
 * generated ConfigMap's `a=5`, a label `"on"`), and a strategic-merge patch's plain scalar written over it later keeps that style,
 * so `a: 6` gives "6". kustomize-ts records the styles of what it reads, of what strategic-merge
 * patches write (fixtures smp-styled-scalars, smp-styled-fields-kept,
 * smp-new-field-yaml11-style), of what a JSON patch reads back (smp-styled-after-json-patch) and
 * of what generators and the label and annotation transformers write (generated-string-styles).
 */

/*
 * A known gap, not yet followed by kustomize-ts, that the generator avoids: an untagged scalar
 * (what a replacement creates, or a delimiter writes) whose text reads as a number, a boolean
 * or null changes type at later steps of kustomize: it becomes the string of its text when
 * kustomize rewrites the resource's annotations through a string map (as it does whenever it
 * records build state: a prefix, a suffix, an origin), and its JSON value when a JSON patch
 * round-trips the resource. kustomize-ts follows the replacement runs, the images transformer
 * (which keeps the old image's quotes: fixture replacement-into-quoted-image, found by the
 * 10,000-case run, seed 1, case 3775), strategic-merge walks and JSON patches (fixtures
 * replacement-untagged-across-runs, smp-quotes-untagged, json6902-round-trip) but not the
 * string-map rewrites. fields.mjs's replacement writes a value that may not read as a string
 * only into fields that exist, and creates fields only for names, labels and images.
 */
