// The MCP resources: docs/commissions.md as the package ships it, and the program's settings
// (a local program only: the REST API serves no settings, so through a server there are none).
import { existsSync, readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** A resource as resources/list shows it, and how it is read. */
export interface McpResource {
  uri: string
  name: string
  description: string
  mimeType: string
  read(): Promise<string>
}

/** This module's folder: src/mcp in the sources, dist/ or a folder below it once built (the CommonJS build shims import.meta.url). */
const moduleDir = () => dirname(fileURLToPath(import.meta.url))

/** The package's docs/ folder: the nearest one above this module that holds commissions.md. */
export function packageDocsDir(from = moduleDir()): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'docs', 'commissions.md'))) return join(dir, 'docs')
    if (dirname(dir) === dir) return null
  }
}

/** The version in the package.json beside the docs/ folder; 'unknown' without one. */
export function packageVersion(docsDir: string | null): string {
  try {
    return (JSON.parse(readFileSync(join(docsDir ?? '', '..', 'package.json'), 'utf8')) as { version?: string }).version ?? 'unknown'
  } catch {
    return 'unknown'
  }
}

export function commissionsResource(docsDir: string | null): McpResource {
  return {
    uri: 'affiliate-kit://docs/commissions.md',
    name: 'commissions.md',
    description: 'How commissions are computed: rules, products, renewals, tiers, bonuses, holds, refunds and previews (docs/commissions.md)',
    mimeType: 'text/markdown',
    async read() {
      if (docsDir === null) throw new Error('docs/commissions.md was not found beside affiliate-kit; pass docsDir to createMcpServer')
      return readFile(join(docsDir, 'commissions.md'), 'utf8')
    },
  }
}

export function settingsResource(settings: () => Promise<unknown>): McpResource {
  return {
    uri: 'affiliate-kit://settings',
    name: 'settings',
    description: "The program's settings as stored: currency, hold period, commission rules, payouts, fraud rules, attribution (docs/settings.md)",
    mimeType: 'application/json',
    read: async () => JSON.stringify(await settings(), null, 2),
  }
}
