// The console served over real HTTP and a Chromium page signed in to it with the owner's key.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { launchBrowser } from '../browser-helpers.js'
import type { AdminFixture } from './helpers.js'

export async function signedInConsole(fixture: AdminFixture) {
  const server = createServer((req, res) => fixture.admin.node(req, res))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const browser = await launchBrowser()
  const page = await browser.newPage()
  await page.goto(`${base}/admin/`)
  await page.getByLabel('Admin API key').fill(fixture.adminKey)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL(`${base}/admin/`)
  return {
    base,
    page,
    async close() {
      await browser.close()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
