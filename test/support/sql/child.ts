// A child process for the multi-process SQL tests: opens its own storage (its own pool or PGlite
// instance), says "ready", waits for "go" on stdin, does its part and prints one JSON line.
// Usage: node --import tsx test/support/sql/child.ts <mode> <json args>
import { createInterface } from 'node:readline'
import { pgliteStorage } from '../../../src/adapters/pglite/index.js'
import { postgresStorage, type PostgresStorageOptions } from '../../../src/adapters/postgres/index.js'
import { newConversion } from '../../../src/core/model/entities.js'
import type { Conversion, Insert } from '../../../src/storage.js'
import { createHandler } from '../../../src/http/index.js'
import { createAffiliateProgram, type StoragePort } from '../../../src/index.js'

interface Args {
  /** PostgreSQL: the connection string and its route's options (pg-schema.ts routeConnection). */
  connection?: { connectionString: string } & Pick<PostgresStorageOptions, 'pooler'>
  schema?: string
  dataDir?: string
  project: string
  affiliateId: number
  count?: number
  amount?: string
  apiKey?: string
  /** 'partitions': the first month to make (ISO) and how many after it. */
  from?: string
  months?: number
}

const [mode, raw] = process.argv.slice(2)
const args = JSON.parse(raw!) as Args

// Each child sends up to 50 writes at once on 10 connections; these tests are about what the
// writes commit, so a wait for a free connection may last as long as a loaded CI machine needs.
const opened: StoragePort = args.dataDir
  ? pgliteStorage({ dataDir: args.dataDir })
  : postgresStorage({ ...args.connection!, schema: args.schema!, max: 10, connectionTimeoutMs: 60_000 })
// 'answer-lost': the request commits, then the process reports it and hangs before storing its
// Idempotency-Key answer, until killed. 'commit-lost': it hangs inside its write transaction,
// everything written but not committed, until killed.
const hang = (line: string) => {
  console.log(line)
  return new Promise<never>(() => {})
}
const storage: StoragePort =
  mode === 'answer-lost'
    ? { ...opened, keyedState: { ...opened.keyedState, settle: () => hang('committed') } }
    : mode === 'commit-lost'
      ? { ...opened, transaction: (fn) => opened.transaction(async (tx) => (await fn(tx), hang('mid-transaction'))) }
      : opened
const program = await createAffiliateProgram({ storage, project: args.project })

const lines = createInterface({ input: process.stdin })
const go = new Promise<void>((resolve) => lines.once('line', () => resolve()))
console.log('ready')
await go

const outcome = (promise: Promise<unknown>) =>
  promise.then(
    (value) => ({ ok: true as const, value }),
    (error: { code?: string; message?: string }) => ({ ok: false as const, code: error.code ?? 'crash', message: error.message }),
  )

if (mode === 'conversions') {
  const input = { type: 'purchase' as const, affiliateId: args.affiliateId, baseValue: '10.00', reference: 'ch_multi', email: 'buyer@example.com' }
  const results = await Promise.all(Array.from({ length: args.count! }, () => outcome(program.conversions.create(input))))
  console.log(
    JSON.stringify(
      results.map((result) => (result.ok ? { duplicate: (result.value as { duplicate: boolean }).duplicate } : { error: result.code, message: result.message })),
    ),
  )
} else if (mode === 'payouts') {
  const results = await Promise.all(
    Array.from({ length: args.count! }, () => outcome(program.payouts.create({ affiliateId: args.affiliateId, amount: args.amount! }))),
  )
  console.log(JSON.stringify(results.map((result) => (result.ok ? { paid: true } : { error: result.code, message: result.message }))))
} else if (mode === 'partitions') {
  // Opening made this month and the next ones already (as the other process did, at the same time).
  const result = await outcome(storage.clickPartitions.prepare(new Date(args.from!), args.months!))
  console.log(JSON.stringify(result.ok ? { made: true } : { error: result.code, message: result.message }))
} else if (mode === 'answer-lost' || mode === 'commit-lost') {
  const handler = createHandler(program, { rateLimit: false, state: storage.keyedState })
  await handler(
    new Request('http://child.local/api/v1/conversions', {
      method: 'POST',
      headers: { authorization: `Bearer ${args.apiKey}`, 'content-type': 'application/json', 'idempotency-key': 'charge-ch_lost' },
      body: JSON.stringify({ type: 'purchase', affiliate_id: args.affiliateId, base_value: 49, reference: 'ch_lost' }),
    }),
  )
} else if (mode === 'crash') {
  // Writes inside one transaction, reports that it is mid-way, then hangs until killed.
  await storage.transaction(async (tx) => {
    const projectId = program.projectId
    await tx.affiliates.adjustTotals(projectId, args.affiliateId, { countedValue: 12_345n, purchases: 1 })
    await tx.referrals.insert({
      projectId,
      email: 'crash@example.com',
      affiliateId: args.affiliateId,
      conversionStatus: 'pending',
      conversionDate: null,
      firstPurchaseAt: null,
      payments: 0,
      lastPayment: null,
      clickId: null,
      createdAt: new Date(),
    })
    await tx.conversions.insert(newConversion<Insert<Conversion>>({
      projectId,
      affiliateId: args.affiliateId,
      referredUserId: null,
      customerEmail: 'crash@example.com',
      type: 'purchase',
      value: 12_345n,
      baseValue: 41_150n,
      baseCurrency: 'USD',
      refundedBaseValue: 0n,
      paid: false,
      paidByPayoutId: null,
      status: 'active',
      holdUntil: new Date(),
      reference: 'ch_crash',
      fingerprint: null,
      couponCodeUsed: null,
      basis: 'explicit',
      commissionType: 'fixed',
      commissionRate: null,
      tier: 1,
      parentConversionId: null,
      refundReason: null,
      productId: null,
      ruleSource: null,
      commissionAmount: null,
      reviewReason: null,
      clickVisitor: null,
      cardFingerprint: null,
      createdAt: new Date(),
    }))
    console.log('mid-transaction')
    await new Promise(() => {})
  })
}
lines.close()
await storage.close()
