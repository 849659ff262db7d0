// Real-browser tests: Debian's Chromium driven by playwright-core (its own browser downloads cannot
// run here), axe-core for accessibility, screenshots into test-output/screenshots/.
import { mkdirSync, readFileSync } from 'node:fs'
import { createServer, type RequestListener } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const SCREENSHOT_DIR = join(process.cwd(), 'test-output', 'screenshots')

/** Flags that keep Chromium off the (closed) network and quiet when run as root in CI. */
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
]

/** Chromium with the flags above, and `extra` ones (such as --test-third-party-cookie-phaseout). */
export function launchBrowser(extra: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...FLAGS, ...extra] })
}

/** A local server for the pages under test and a Chromium to visit them; `close` ends both. */
export interface BrowserSite {
  base: string
  browser: Browser
  close(): Promise<void>
}

/** Serves `listener` on 127.0.0.1 (a free port) and launches Chromium. */
export async function browserSite(listener: RequestListener): Promise<BrowserSite> {
  const server = createServer(listener)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const browser = await launchBrowser()
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    browser,
    async close() {
      await browser.close()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

/** Writes a full-page PNG named `name` into the screenshot folder; returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true })
  const path = join(SCREENSHOT_DIR, `${name}.png`)
  await page.screenshot({ path, fullPage: true })
  return path
}

export interface AxeViolation {
  id: string
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null
  help: string
  nodes: { target: string[] }[]
}

const axeSource = (): string => readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/** Runs axe-core in the page (through the debugger, so a strict CSP does not block it); returns the serious and critical violations. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource())
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: unknown[] }> } }).axe
    return (await axe.run()).violations
  })
  return (violations as AxeViolation[]).filter((v) => v.impact === 'serious' || v.impact === 'critical')
}
