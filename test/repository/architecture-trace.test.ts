// docs/architecture.md follows `POST /api/v1/conversions` and a Stripe `invoice.paid` through the
// code, with the SQL each step runs. This test runs both with the SQL log on and holds the document
// to what ran, so that it cannot drift from the code again:
// - the statements of each table's SQL column, in order, are the statements that ran (compared by
//   shape: the verb, the tables named, whether it locks rows; not by text, timing or ids);
// - every file the tables name exists, and every function a "where" cell names is in its files;
// - each statement's row, or a row before it, names the file that ran the statement (the first
//   file of its stack above the SQL plumbing).
// Changing a path of the code means changing the document with it; a failure prints what ran.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { pgliteStorage, type SqlLogEntry } from '../../src/adapters/pglite/index.js'
import { postgresStorage } from '../../src/adapters/postgres/index.js'
import { createHandler } from '../../src/http/index.js'
import { createAffiliateProgram, testClock, type StoragePort } from '../../src/index.js'
import { stripeHandler } from '../../src/providers/stripe/index.js'
import { tempDirs } from '../support/cli/temp-dirs.js'
import { caller } from '../support/http/helpers.js'
import { migratedDataDir } from '../support/pglite-template.js'
import { SCENARIO_SETTINGS, scenarioAffiliates } from '../support/providers/scenario.js'
import { invoicePaid } from '../support/providers/stripe-fixtures.js'
import { deliverStripe, STRIPE_SECRET } from '../support/providers/stripe-scenario.js'
import { DATABASE_URL, dropSchema, freshSchemaName, NO_DATABASE_REASON } from '../support/sql/pg-schema.js'

const ROOT = resolve(__dirname, '../..')
const DOCUMENT = 'docs/architecture.md'
const CONVERSION_SECTION = '## `POST /api/v1/conversions`'
const STRIPE_SECTION = '## A Stripe `invoice.paid`'

/** A statement that ran: its text as logged, and the files of src/ on its stack, innermost first. */
interface Ran {
  text: string
  files: string[]
}

/** Files that only carry a statement to the database: the file that ran a statement is the first other one. */
const PLUMBING = /^src\/adapters\/(sql\/(sql-log|executor|codec|table|storage)\.ts|pglite\/|postgres\/)/

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`
    return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith('.ts') ? [path] : []
  })
}
const SOURCES = sourceFiles('src')

/** Every table the migrations create or change. */
const TABLES = new Set(sourceFiles('src/adapters/sql/migrations').flatMap((file) => [...readFileSync(join(ROOT, file), 'utf8').matchAll(/\{s\}\.([a-z_]+)/g)].map((match) => match[1]!)))

/** The files of src/ a stack passes through, innermost first, each once. */
function stackFiles(stack: string): string[] {
  const files = stack.split('\n').flatMap((line) => {
    const path = /(\/[^\s():]+\.ts):\d+:\d+/.exec(line)?.[1]
    const file = path === undefined ? null : relative(ROOT, path)
    return file?.startsWith('src/') ? [file] : []
  })
  return [...new Set(files)]
}

const CONTROL = /^(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE SAVEPOINT|ROLLBACK TO SAVEPOINT)$/

/** What a statement is, whatever its parameters or the schema's name: its verb, the tables it names (sorted), whether it locks rows. */
function shape(verb: string, tables: string[], text: string): string {
  const locks = /\bFOR (NO KEY )?UPDATE\b/i.test(text) ? ' FOR UPDATE' : ''
  return `${[verb.toUpperCase(), ...[...new Set(tables)].sort()].join(' ')}${locks}`
}

/** A logged statement's shape: its tables are the schema-qualified names ("affiliate_kit".conversions). */
function ranShape(text: string): string {
  if (CONTROL.test(text)) return text
  return shape(text.split(' ')[0]!, [...text.matchAll(/"[^"]+"\.([a-z_]+)/g)].map((match) => match[1]!), text)
}

/** A documented statement's shape: its tables are the known ones after FROM, INTO, UPDATE or JOIN. */
function documentedShape(text: string): string {
  const statement = text.trim()
  if (CONTROL.test(statement)) return statement
  const tables = [...statement.matchAll(/\b(?:FROM|INTO|UPDATE|JOIN)\s+([a-z_]+)/gi)].map((match) => match[1]!).filter((table) => TABLES.has(table))
  return shape(statement.split(/\s+/)[0]!, tables, statement)
}

const STATEMENT = /^(SELECT|INSERT|UPDATE|DELETE|WITH|BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)\b/
const IDENTIFIER = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/

interface Row {
  step: string
  /** The files the row names, as paths under src/. */
  files: string[]
  /** The functions its "where" cell names, `()` dropped. */
  functions: string[]
  /** The statements of its SQL cell, in order. */
  statements: string[]
}

const codeSpans = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!)

/** A file as the document names it (`handler.ts`, `repositories/api-keys.ts`, `src/http/handler.ts`): the one file of src/ it can be, preferring the folders named before. */
function resolveFile(name: string, before: string[]): string | string[] {
  const candidates = SOURCES.filter((file) => file === name || file.endsWith(`/${name}`))
  if (candidates.length <= 1) return candidates[0] ?? []
  const folders = before.map((file) => file.slice(0, file.lastIndexOf('/'))).reverse()
  const folder = folders.find((dir) => candidates.some((file) => file.startsWith(`${dir}/`) && !file.slice(dir.length + 1).includes('/')))
  return folder === undefined ? candidates : candidates.find((file) => file.startsWith(`${folder}/`) && !file.slice(folder.length + 1).includes('/'))!
}

/** The table under a heading of the document, row by row; problems (files it cannot find) go to `problems`. */
function documentedTable(markdown: string, heading: string, problems: string[]): Row[] {
  const text = `\n${markdown}`
  const start = text.indexOf(`\n${heading}`)
  expect(start, `${DOCUMENT} has a section ${heading}`).toBeGreaterThanOrEqual(0)
  const lines = text.slice(start + 1).split('\n')
  const first = lines.findIndex((line) => line.startsWith('| # |'))
  const rows: Row[] = []
  const named: string[] = []
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break
    const [step = '', where = '', what = '', sql = ''] = line.slice(1, -1).split(/(?<!\\)\|/).map((cell) => cell.trim())
    const spans = [...codeSpans(where), ...codeSpans(what), ...codeSpans(sql)]
    const files = spans
      .filter((span) => span.endsWith('.ts'))
      .flatMap((span) => {
        const file = resolveFile(span, named)
        if (typeof file === 'string') return [file]
        problems.push(`step ${step}: \`${span}\` is ${file.length === 0 ? 'no file of src/' : `one of ${file.join(', ')}: write more of its path`}`)
        return []
      })
    named.push(...files)
    const functions = codeSpans(where)
      .filter((span) => !span.endsWith('.ts'))
      .map((span) => span.replace(/\(\)$/, ''))
      .filter((span) => IDENTIFIER.test(span))
    rows.push({ step, files, functions, statements: codeSpans(sql).filter((span) => STATEMENT.test(span)) })
  }
  return rows
}

/** Where the document and what ran part ways, as lines; none when the document tells what ran. */
function drift(markdown: string, heading: string, ran: Ran[]): string[] {
  const problems: string[] = []
  const rows = documentedTable(markdown, heading, problems)
  const read = (file: string) => readFileSync(join(ROOT, file), 'utf8')

  // Functions: a plain name is in a file the table names in its row or before; a dotted one
  // (api.conversions.create) is written so somewhere in src/.
  const files: string[] = []
  for (const row of rows) {
    files.push(...row.files.filter((file) => !files.includes(file)))
    for (const name of row.functions) {
      const found = name.includes('.') ? SOURCES.some((file) => read(file).includes(name)) : files.some((file) => new RegExp(`\\b${name.replace(/\$/g, '\\$')}\\b`).test(read(file)))
      if (!found) problems.push(`step ${row.step}: \`${name}\` is not in ${name.includes('.') ? 'src/' : files.join(', ') || 'a file the table names'}`)
    }
  }

  // Statements: the same shapes in the same order, and each run by a file its row or an earlier one names.
  const documented = rows.flatMap((row, index) => row.statements.map((statement) => ({ row, index, shape: documentedShape(statement) })))
  const ranShapes = ran.map((statement) => ranShape(statement.text))
  const shown = ran.map((statement, i) => `  ${ranShapes[i]}  (${statement.files.find((file) => !PLUMBING.test(file)) ?? 'by the executor'})`).join('\n')
  if (JSON.stringify(documented.map((statement) => statement.shape)) !== JSON.stringify(ranShapes)) {
    problems.push(`the SQL column says\n${documented.map((statement) => `  step ${statement.row.step}: ${statement.shape}`).join('\n')}\nwhat ran:\n${shown}`)
    return problems
  }
  documented.forEach(({ row, index }, i) => {
    const runner = ran[i]!.files.find((file) => !PLUMBING.test(file))
    const named = rows.slice(0, index + 1).flatMap((earlier) => earlier.files)
    if (runner !== undefined && !named.includes(runner)) problems.push(`step ${row.step}: \`${ranShapes[i]}\` is run by ${runner}, which no row up to it names`)
  })
  return problems
}

/** A storage whose SQL log records, while `recording` is set, each statement with the files of its stack. */
function tracing(open: (logSql: (entry: SqlLogEntry) => void) => StoragePort) {
  const trace = { recording: null as Ran[] | null }
  const storage = open((entry) => {
    if (!trace.recording) return
    const limit = Error.stackTraceLimit
    Error.stackTraceLimit = 200
    const stack = new Error('statement').stack ?? ''
    Error.stackTraceLimit = limit
    trace.recording.push({ text: entry.text, files: stackFiles(stack) })
  })
  /** The statements `work` runs. */
  const record = async (work: () => Promise<void>): Promise<Ran[]> => {
    const ran: Ran[] = []
    trace.recording = ran
    try {
      await work()
    } finally {
      trace.recording = null
    }
    return ran
  }
  return { storage, record }
}

/** An affiliate's referred customer buys: POST /api/v1/conversions by email with an Idempotency-Key, one webhook endpoint subscribed, the key's rate limit in the storage's keyed state. */
async function conversionCreate(open: (logSql: (entry: SqlLogEntry) => void) => StoragePort): Promise<Ran[]> {
  const { storage, record } = tracing(open)
  try {
    // A stopped clock: the project's settings, cached for a second, are not read again however
    // slowly a busy machine runs the setup (the document says when they are).
    const program = await createAffiliateProgram({ storage, clock: testClock(new Date()) })
    const { key } = await program.keys.create()
    await program.affiliates.create({ email: 'ann@example.com', referralCode: 'ANN' })
    await program.referrals.create({ email: 'bob@example.com', referralCode: 'ANN' })
    await program.webhooks.create({ url: 'https://hooks.example.com/in', events: ['referral_converted'] })
    const api = caller(createHandler(program, { state: storage.keyedState }), key)
    return await record(async () => {
      const created = await api('POST', '/conversions', { type: 'purchase', email: 'bob@example.com', base_value: 49, reference: 'order-1' }, { headers: { 'idempotency-key': 'order-1' } })
      expect(created.status, JSON.stringify(created.body)).toBe(201)
    })
  } finally {
    await storage.close()
  }
}

/** A referred customer's invoice paid in Stripe, posted signed to the Stripe handler, one webhook endpoint subscribed. */
async function stripeInvoicePaid(open: (logSql: (entry: SqlLogEntry) => void) => StoragePort): Promise<Ran[]> {
  const { storage, record } = tracing(open)
  try {
    const clock = testClock('2026-02-01T00:00:00Z')
    const program = await createAffiliateProgram({ storage, clock, settings: SCENARIO_SETTINGS })
    await scenarioAffiliates(program, 'BOB20')
    await program.referrals.create({ email: 'dan@example.com', referralCode: 'ANN' })
    await program.webhooks.create({ url: 'https://hooks.example.com/in', events: ['referral_converted'] })
    const handler = stripeHandler({ program, storage, webhookSecret: STRIPE_SECRET })
    const invoice = invoicePaid({ at: '2026-01-31T23:59:00Z', id: 'in_Dan1', customer: 'cus_Dan', email: 'dan@example.com', subtotal: 1000, tax: 0, billingReason: 'manual', paymentIntent: 'pi_Dan1' })
    return await record(async () => {
      const response = await deliverStripe(handler, invoice, clock)
      expect(await response.json()).toMatchObject({ received: true, status: 'applied' })
    })
  } finally {
    await storage.close()
  }
}

const documentText = () => readFileSync(join(ROOT, DOCUMENT), 'utf8')

describe(`${DOCUMENT} against what runs on PGlite`, () => {
  // On a copy of the migrated template: no initdb and migrations first (seconds each; not traced either way).
  const dataDir = tempDirs('affiliate-kit-trace')
  const pglite = (logSql: (entry: SqlLogEntry) => void) => pgliteStorage({ logSql, dataDir: migratedDataDir(join(dataDir(), 'data')) })

  it('POST /api/v1/conversions: the statements, the files that run them, the functions named', async () => {
    expect(drift(documentText(), CONVERSION_SECTION, await conversionCreate(pglite))).toEqual([])
  })

  it('a Stripe invoice.paid: the statements, the files that run them, the functions named', async () => {
    expect(drift(documentText(), STRIPE_SECTION, await stripeInvoicePaid(pglite))).toEqual([])
  })

  it('finds the drift it is there for: a function the code does not call, a statement left out, a lock not said', () => {
    const keyRead: Ran = { text: 'SELECT * FROM "affiliate_kit".api_keys WHERE hash = $1', files: ['src/adapters/sql/repositories/api-keys.ts', 'src/core/project/keys.ts', 'src/http/handler.ts'] }
    const table = (where: string, sql: string) =>
      `${CONVERSION_SECTION}\n\n| # | where | what | SQL |\n|---|---|---|---|\n| 3 | ${where} | the key | ${sql} |\n`
    const read = '`SELECT * FROM api_keys WHERE hash = $1` (`repositories/api-keys.ts`)'
    expect(drift(table('`src/http/handler.ts` `admit` → `program.keyVerifier()` (`src/core/project/keys.ts`)', read), CONVERSION_SECTION, [keyRead])).toEqual([])
    expect(drift(table('`src/http/handler.ts` `admit` → `program.keys.verify` (`src/core/project/keys.ts`)', read), CONVERSION_SECTION, [keyRead])).toEqual([
      'step 3: `program.keys.verify` is not in src/',
    ])
    expect(drift(table('`src/http/handler.ts` `admit`', '`SELECT * FROM api_keys WHERE hash = $1`'), CONVERSION_SECTION, [keyRead])).toEqual([
      'step 3: `SELECT api_keys` is run by src/adapters/sql/repositories/api-keys.ts, which no row up to it names',
    ])
    const deferred = 'WITH input AS (SELECT * FROM unnest($1::text[])), inserted AS (INSERT INTO "s".webhook_events (id) SELECT id FROM input RETURNING id), mailed AS (INSERT INTO "s".mail_messages (id) SELECT id FROM inserted) INSERT INTO "s".deliveries (event_id) SELECT id FROM inserted'
    expect(ranShape(deferred)).toBe('WITH deliveries mail_messages webhook_events')
    expect(documentedShape('WITH input AS (SELECT * FROM unnest(...)), inserted AS (INSERT INTO webhook_events ...) INSERT INTO deliveries ...')).toBe('WITH deliveries webhook_events')
    expect(ranShape('SELECT * FROM "s".affiliates WHERE id = $1 FOR NO KEY UPDATE')).not.toBe(documentedShape('SELECT * FROM affiliates WHERE id = $1'))
  })
})

const onPostgres = DATABASE_URL ? describe : describe.skip

onPostgres(`${DOCUMENT} against what runs on PostgreSQL${DATABASE_URL ? '' : ` (skipped: ${NO_DATABASE_REASON})`}`, () => {
  const schemas: string[] = []
  const postgres = (logSql: (entry: SqlLogEntry) => void) => {
    const schema = freshSchemaName()
    schemas.push(schema)
    return postgresStorage({ connectionString: DATABASE_URL!, schema, logSql })
  }
  afterAll(() => Promise.all(schemas.map(dropSchema)))

  it('POST /api/v1/conversions runs the statements the document shows', async () => {
    expect(drift(documentText(), CONVERSION_SECTION, await conversionCreate(postgres))).toEqual([])
  })

  it('a Stripe invoice.paid runs the statements the document shows', async () => {
    expect(drift(documentText(), STRIPE_SECTION, await stripeInvoicePaid(postgres))).toEqual([])
  })
})
