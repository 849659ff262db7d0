// A mail dispatcher process killed with SIGKILL while sending (docs/email.md "Never lost, never
// twice"): after a restart every mail arrives, each under its one Message-ID. A copy can arrive
// twice only when the kill fell between the SMTP server's 250 and the record of it; it then
// carries the same Message-ID and the same content (receivers fold such copies). On PostgreSQL
// (DATABASE_URL) and on PGlite (a data directory the dispatcher processes open in turn).
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { pgliteStorage } from '../../src/adapters/pglite/index.js'
import { postgresStorage } from '../../src/adapters/postgres/index.js'
import { createAffiliateProgram, type StoragePort } from '../../src/index.js'
import { startSmtp, type SmtpCatcher } from '../support/email/smtp.js'
import { DATABASE_URL, freshPostgresStorage } from '../support/sql/pg-schema.js'
import { migratedDataDir } from '../support/pglite-template.js'

const here = dirname(fileURLToPath(import.meta.url))
const MAILS = 120
const CONCURRENCY = 4

function startChild(args: object) {
  const child = spawn(process.execPath, ['--import', 'tsx', join(here, '../support/email/dispatcher-child.ts'), JSON.stringify(args)], { env: process.env, stdio: ['pipe', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve())
    void exited.then(() => reject(new Error(`dispatcher exited early: ${stderr}`)))
  })
  return {
    ready,
    exited,
    kill: () => child.kill('SIGKILL'),
    async stop() {
      child.stdin!.write('stop\n')
      const code = await exited
      if (code !== 0) throw new Error(`dispatcher exited with ${code}: ${stderr}`)
    },
  }
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out')
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

/** MAILS commission mails of distinct amounts ($0.30, $0.60, ...) queued in the storage; closes it. */
async function queueMails(storage: StoragePort): Promise<string> {
  const program = await createAffiliateProgram({ storage, settings: { currency: 'USD' } })
  await storage.mail.enable(new Date())
  const affiliate = await program.affiliates.create({ email: 'ann@example.com' })
  for (let index = 1; index <= MAILS; index++) {
    await program.conversions.create({ type: 'purchase', affiliateId: affiliate.id, baseValue: index, reference: `order-${index}` })
  }
  const projectId = program.projectId
  await program.close()
  return projectId
}

/** Kills a dispatcher mid-batch, starts another, and checks what the SMTP server received. */
async function killAndResume(smtp: SmtpCatcher, childArgs: object, afterKill: () => Promise<void> = async () => {}) {
  const first = startChild(childArgs)
  await first.ready
  await until(() => smtp.received.length >= MAILS / 4, 60_000)
  first.kill()
  await first.exited
  const beforeKill = smtp.received.length
  expect(beforeKill).toBeLessThan(MAILS)
  await afterKill()
  const second = startChild(childArgs)
  await second.ready
  await until(() => new Set(smtp.received.map((item) => item.mail.messageId)).size === MAILS, 90_000)
  // Let the second finish its records (and send anything left) before it stops.
  await new Promise((resolve) => setTimeout(resolve, 500))
  await second.stop()

  const byId = new Map<string, string[]>()
  for (const item of smtp.received) byId.set(item.mail.messageId!, [...(byId.get(item.mail.messageId!) ?? []), `${item.mail.subject}|${item.mail.text}`])
  expect(byId.size).toBe(MAILS)
  const subjects = new Set([...byId.values()].map((copies) => copies[0]!.split('|')[0]))
  expect(subjects.size).toBe(MAILS)
  expect(subjects).toContain('You earned a commission of $36.00')
  // Copies of one mail are the same message; only mails in flight at the kill can have a copy.
  for (const copies of byId.values()) expect(new Set(copies).size).toBe(1)
  const duplicates = smtp.received.length - MAILS
  expect(duplicates).toBeLessThanOrEqual(CONCURRENCY)
  return { beforeKill, duplicates }
}

/** Every mail is recorded sent, none is left sending; closes the storage. */
async function expectAllSent(reader: StoragePort, projectId: string): Promise<void> {
  expect((await reader.mail.list(projectId, { limit: 1, offset: 0, status: 'sent' })).total).toBe(MAILS)
  expect((await reader.mail.list(projectId, { limit: 1, offset: 0, status: 'sending' })).total).toBe(0)
  await reader.close()
}

const childArgs = (smtp: SmtpCatcher, storageArgs: object) => ({ ...storageArgs, smtpUrl: smtp.url, leaseMs: 1500, concurrency: CONCURRENCY })

/** An SMTP server a little slow to answer DATA, so the kill lands while mails are in flight. */
const slowSmtp = () => startSmtp({ dataDelayMs: 15 })

describe.skipIf(!DATABASE_URL)('a mail dispatcher killed mid-send, on PostgreSQL', () => {
  it('loses no mail and sends each under one Message-ID', { timeout: 180_000 }, async () => {
    const smtp = await slowSmtp()
    const { storage, schema, cleanup } = freshPostgresStorage()
    try {
      const projectId = await queueMails(storage)
      const { duplicates } = await killAndResume(smtp, childArgs(smtp, { postgresSchema: schema }))
      await expectAllSent(postgresStorage({ connectionString: DATABASE_URL!, schema }), projectId)
      console.log(`postgres: ${duplicates} copies after the kill`)
    } finally {
      await smtp.stop()
      await cleanup()
    }
  })
})

describe('a mail dispatcher killed mid-send, on PGlite', () => {
  it('loses no mail and sends each under one Message-ID', { timeout: 180_000 }, async () => {
    const smtp = await slowSmtp()
    const dataDir = migratedDataDir(mkdtempSync(join(tmpdir(), 'affiliate-kit-mail-')))
    try {
      const projectId = await queueMails(pgliteStorage({ dataDir }))
      const { duplicates } = await killAndResume(smtp, childArgs(smtp, { pgliteDir: dataDir }))
      await expectAllSent(pgliteStorage({ dataDir }), projectId)
      console.log(`pglite: ${duplicates} copies after the kill`)
    } finally {
      await smtp.stop()
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
