// The embedded dashboard's browser entries built as the package builds them (the tsup.config.ts
// entry of affiliate-kit/embed and affiliate-kit/react, into a temporary folder), and a React test
// page bundled on top of that build with esbuild, React and react-dom included.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build as bundle } from 'esbuild'
import { build, type Options } from 'tsup'
import configs from '../../../tsup.config.js'

export interface EmbedBuilds {
  /** Folder with embed/index.js, react/index.js and their chunks, as ESM. */
  dir: string
  /** The React page's script: one file, React included. */
  reactPage: string
}

const REACT_PAGE = (reactEntry: string) => `
import { createElement } from 'react'
import { createRoot } from 'react-dom/client'
import { ReferralDashboard } from ${JSON.stringify(reactEntry)}

const settings = JSON.parse(document.getElementById('settings').textContent)
window.fetchedTokens = 0
const fetchToken = async () => {
  window.fetchedTokens += 1
  const response = await fetch('/token?email=' + encodeURIComponent(settings.email) + '&attempt=' + window.fetchedTokens)
  return (await response.json()).token
}
createRoot(document.getElementById('root')).render(
  createElement(ReferralDashboard, { fetchToken, baseUrl: settings.baseUrl, appearance: settings.appearance, lang: settings.lang, title: 'Your referrals' }),
)
`

export async function buildEmbed(): Promise<EmbedBuilds> {
  const dir = mkdtempSync(join(tmpdir(), 'affiliate-kit-embed-'))
  const config = (configs as Options[]).find((options) => typeof options.entry === 'object' && !Array.isArray(options.entry) && 'react/index' in options.entry)
  if (!config) throw new Error('tsup.config.ts has no affiliate-kit/react entry')
  const root = new URL('../../..', import.meta.url).pathname
  const entry = Object.fromEntries(Object.entries(config.entry as Record<string, string>).map(([name, path]) => [name, join(root, path)]))
  await build({ ...config, entry, outDir: dir, format: ['esm'], dts: false, sourcemap: false, silent: true, config: false })
  const pageEntry = join(dir, 'react-page.js')
  writeFileSync(pageEntry, REACT_PAGE(join(dir, 'react/index.js')))
  const result = await bundle({ entryPoints: [pageEntry], bundle: true, write: false, format: 'esm', platform: 'browser', define: { 'process.env.NODE_ENV': '"production"' }, nodePaths: [join(root, 'node_modules')], logLevel: 'silent' })
  return { dir, reactPage: result.outputFiles[0]!.text }
}
