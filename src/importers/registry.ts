// The importers' registry: one line per tool, keyed by its name (`affiliate-kit import <name>`,
// csvSource's first argument). The CLI's import commands and their usage, the CSV layouts and the
// list of tools in docs/migrating.md derive from it (test/importers/importers-registry.test.ts fails when
// another file of src/ or docs/ lists the tools). Adding a tool: its folder src/importers/<name>/
// (source.ts: its ImportSource, named `<name>`; csv-exports.ts: its CSV layout; index.ts: its
// Importer) and its line here; then its section in docs/migrating.md.
import { dubImporter } from './dub/index.js'
import { firstPromoterImporter } from './firstpromoter/index.js'
import type { Importer } from './importer.js'
import { rewardfulImporter } from './rewardful/index.js'
import { toltImporter } from './tolt/index.js'

export const IMPORTERS = {
  rewardful: rewardfulImporter,
  tolt: toltImporter,
  firstpromoter: firstPromoterImporter,
  dub: dubImporter,
} satisfies Record<string, Importer>

export type ImporterName = keyof typeof IMPORTERS

/** The tools in the registry's order (the CLI's usage lists them so). */
export const IMPORTER_NAMES = Object.keys(IMPORTERS) as ImporterName[]
