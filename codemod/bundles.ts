// Files a bundler wrote (esbuild, webpack, ncc, Parcel, Rollup's CommonJS interop): the next build
// overwrites them, so rewrite leaves them alone and audit reports their v1 addresses by text, asking
// for a rebuild from the migrated sources. Analysing one as code is also what real trees make slow:
// a committed 800 KB esbuild bundle of an MCP server (its SDK and zod inlined) kept the engine busy
// for more than a quarter of an hour, for sites its own sources already hold.

/** How much of a file's start is looked at: bundlers write their runtime helpers first. */
const HEAD_BYTES = 4096;

const MARKERS: [bundler: string, marker: RegExp][] = [
  // esbuild's helpers, in the order it writes them at the top of a bundle.
  ["esbuild", /\bvar __defProp = Object\.defineProperty;[\s\S]*\bvar __(?:getOwnPropNames|export|commonJS|name|require|esm|toESM|copyProps) = /],
  ["webpack", /\b__webpack_require__\b|\/\*{6}\/ \(\(\) => \{ \/\/ webpackBootstrap/],
  ["ncc", /\b__nccwpck_require__\b/],
  ["Parcel", /\bparcelRequire\b|\$parcel\$/],
  ["Rollup", /\bfunction _interopDefaultLegacy\s*\(e\)|\bfunction _interopNamespaceDefault\s*\(e\)/],
];

/** A word every marker holds: one scan rules out hand-written code (every file of the tree is tested) before the five markers. */
const ANY_MARKER = /__defProp|__webpack_require__|webpackBootstrap|__nccwpck_require__|parcelRequire|\$parcel\$|_interop(?:DefaultLegacy|NamespaceDefault)/;

/** The bundler that wrote `head` (a file's first bytes, as latin1), or undefined for hand-written code. */
export function bundlerOf(head: string): string | undefined {
  const text = head.slice(0, HEAD_BYTES);
  if (!ANY_MARKER.test(text)) return undefined;
  return MARKERS.find(([, marker]) => marker.test(text))?.[0];
}

/** What a bundle is called in its findings' reasons. */
export function bundleKind(bundler: string): string {
  return `a bundle built by ${bundler} (rebuild it from the migrated sources)`;
}
