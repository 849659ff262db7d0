// One-off (issue 44 item 5): moves test/*.test.ts into rooms that mirror src/ (plus browser/,
// cli/, process/, repository/) and the shared helpers into test/support/, with `git mv`, then
// rewrites every relative path that named a moved file: import specifiers, dynamic import(),
// new URL('...', import.meta.url), resolve/join(__dirname | import.meta.dirname, '...'), and
// `test/<path>` as written in comments, docs, scripts and configs.
// Usage: node scripts/test-rooms.mjs [--dry-run]
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const DRY = process.argv.includes('--dry-run')
const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' })

const ROOMS = {
  'adapters': ['storage-close', 'contention', 'pruning-job'],
  'adapters/memory': ['memory', 'memory-held-balances', 'memory-outbox-order'],
  'adapters/pglite': ['pglite', 'pglite-lock'],
  'adapters/postgres': ['postgres', 'postgres-deadlock', 'postgres-faults', 'postgres-pgbouncer', 'postgres-pooler', 'postgres-processes', 'postgres-processes-pgbouncer', 'rolling-upgrade-postgres'],
  'adapters/sql': ['sql-adapter', 'sql-port', 'ledger-upgrade', 'stats-upgrade'],
  'admin': ['admin-batch-postgres', 'admin-console-program', 'admin-console', 'admin-csv-formula', 'admin-pay-now', 'admin-portal-link'],
  'browser': ['admin-browser', 'admin-commission-browser', 'admin-fraud-browser', 'admin-pay-now-browser', 'admin-provider-payouts-browser', 'apply-browser', 'importers-carry-over', 'pages-browser', 'payouts-due-browser', 'payouts-stripe-connect-browser', 'portal-browser', 'portal-referral-link', 'standalone-browser', 'tax-gdpr-browser', 'tiers-browser', 'tracking-browser'],
  'cli': ['cli-admin', 'cli-disk-full', 'cli-env', 'cli-errors', 'cli-exchange-rates', 'cli-import-postgres', 'cli-import-tools', 'cli-import', 'cli-lock', 'cli-operations', 'cli-payouts-run', 'cli-payouts-sync', 'cli-pooler', 'cli-portal-link', 'cli-postgres-faults', 'cli-settings-restart', 'cli-settings-shared', 'cli-tracking', 'cli'],
  'client': ['client', 'client-types'],
  'core/affiliates': ['tax-details'],
  'core/conversions': ['commission-preview-property'],
  'core/model': ['calendar', 'i18n', 'locales-registry'],
  'core/ports': ['web-session-store'],
  'core/project': ['settings-restart'],
  'core/rules': ['fraud-rules'],
  'email': ['email-address', 'email-import', 'email-ledger', 'email-portal', 'email'],
  'http': ['http-alternative', 'http-applications', 'http-commission-rules', 'http-coupons', 'http-examples', 'http-field-names', 'http-fuzz', 'http-handler', 'http-input-limits', 'http-locale', 'http-node', 'http-operations-table', 'http-payouts-due', 'http-portal-link', 'http-primary-more', 'http-primary', 'http-sql', 'http-state', 'http-tenancy', 'http-tiers', 'openapi'],
  'importers': ['importers-csv', 'importers-hostile-api', 'importers-registry', 'importers-rewardful', 'importers-tools'],
  'ops': ['operations', 'surfaces-observed'],
  'payouts': ['payouts-exports', 'payouts-paypal-webhooks', 'payouts-paypal', 'payouts-runs', 'payouts-stripe-connect', 'payouts-stripe-webhooks', 'payouts-stripe', 'payouts-vocabulary'],
  'portal': ['portal-chart', 'portal-control-chars', 'portal-payout-request', 'portal-pending', 'portal-security', 'apply-bots', 'apply-config', 'sign-in-abuse'],
  'process': ['serve-drain', 'readme-commands', 'pack', 'mixed-load', 'schema-too-new', 'config-full', 'email-crash', 'email-server', 'portal-server', 'providers-server', 'providers-replay', 'sign-in-abuse-server', 'sql-log', 'tracking-counted', 'payouts-runs-processes'],
  'providers': ['providers-coupon-match', 'providers-fuzz', 'providers-node', 'providers-paddle', 'providers-postgres', 'providers-products', 'providers-race-pgbouncer', 'providers-race-postgres', 'providers-registry', 'providers-stripe-card', 'providers-stripe', 'providers-wake'],
  'repository': ['architecture', 'architecture-trace', 'docs', 'deploy-files', 'readme-walk-through'],
  'server': ['http-target', 'drain-blocked-loop', 'surfaces-unavailable'],
  'tracking': ['tracking-fraud', 'tracking-handler', 'tracking-signup-race-postgres'],
  'web': ['page-table'],
  'webhooks': ['webhooks-delivery', 'webhooks-failure-log', 'webhooks-guard', 'webhooks-lease', 'webhooks-outcome', 'webhooks-pgbouncer', 'webhooks-postgres', 'webhooks-retry', 'webhooks-timeout', 'webhook-deliveries-http', 'network'],
}
const SUPPORT_FILES = ['browser-helpers.ts', 'webhooks-helpers.ts', 'pglite-template.ts', 'global-setup.ts']
const SUPPORT_DIRS = ['sql', 'admin', 'cli', 'email', 'http', 'importers', 'ops', 'payouts', 'portal', 'providers', 'registries', 'webhooks']

// old repository path -> new repository path, files only; directories map by prefix (DIRS).
const moves = new Map()
const dirs = new Map()
for (const name of SUPPORT_FILES) moves.set(`test/${name}`, `test/support/${name}`)
for (const dir of SUPPORT_DIRS) {
  dirs.set(`test/${dir}`, `test/support/${dir}`)
  for (const file of git('ls-files', `test/${dir}`).split('\n').filter(Boolean)) moves.set(file, file.replace(`test/${dir}/`, `test/support/${dir}/`))
}
for (const [room, names] of Object.entries(ROOMS)) {
  for (const name of names) {
    const from = `test/${name}.test.ts`
    if (!existsSync(join(ROOT, from))) throw new Error(`no ${from}`)
    if (moves.has(from)) throw new Error(`${from} twice`)
    moves.set(from, `test/${room}/${name}.test.ts`)
  }
}
const left = git('ls-files', 'test').split('\n').filter((file) => /^test\/[^/]+\.test\.ts$/.test(file) && !moves.has(file))
if (left.length) throw new Error(`not in a room: ${left.join(', ')}`)

/** The new place of a repository path (a file, a directory, or anything outside test/). */
function moved(path) {
  if (moves.has(path)) return moves.get(path)
  for (const ext of [['.js', '.ts'], ['.mjs', '.mts']]) {
    if (path.endsWith(ext[0])) {
      const ts = path.slice(0, -ext[0].length) + ext[1]
      if (moves.has(ts)) return moves.get(ts).slice(0, -ext[1].length) + ext[0]
    }
  }
  for (const [from, to] of dirs) if (path === from || path.startsWith(`${from}/`)) return to + path.slice(from.length)
  return path
}
const known = (path) => {
  if (moves.has(path) || dirs.has(path)) return true
  const abs = join(ROOT, path)
  if (existsSync(abs)) return true
  return existsSync(abs.replace(/\.js$/, '.ts')) || existsSync(abs.replace(/\.mjs$/, '.mts'))
}

const problems = []
/** Rewrites a relative specifier written in `file` (old path) for its new place. */
function respec(file, spec) {
  const trailing = spec.endsWith('/') && spec.length > 1 ? '/' : ''
  const target = relative(ROOT, resolve(ROOT, dirname(file), spec))
  if (target.startsWith('test') && !target.startsWith('test-') && !known(target)) {
    problems.push(`${file}: '${spec}' names nothing (${target})`)
    return spec
  }
  const from = dirname(moved(file))
  let next = relative(join(ROOT, from), join(ROOT, moved(target))) || '.'
  if (!next.startsWith('.')) next = `./${next}`
  return next + (trailing && !next.endsWith('/') ? '/' : '')
}

const PATTERNS = [
  // import/export ... from '...', import '...', import('...')
  /(\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]*)\2/g,
  // new URL('...', import.meta.url)
  /(\bnew URL\(\s*)(['"])(\.{1,2}(?:\/[^'"]*)?)\2(?=\s*,\s*import\.meta\.url)/g,
  // resolve/join(__dirname | import.meta.dirname, '...')
  /(\b(?:resolve|join)\(\s*(?:__dirname|import\.meta\.dirname)\s*,\s*)(['"])(\.{1,2}(?:\/[^'"]*)?)\2/g,
]
const rewriteCode = (file, text) => PATTERNS.reduce((out, pattern) => out.replace(pattern, (_, head, quote, spec) => `${head}${quote}${respec(file, spec)}${quote}`), text)

// `test/<path>` in prose and configs: rewritten when <path> is a moved file or directory.
function rewriteMentions(text) {
  return text.replace(/(?<![\w./-])test\/([\w./-]+)/g, (whole, rest) => {
    let path = `test/${rest}`
    let tail = ''
    while (/[./]$/.test(path) && !moves.has(path) && !dirs.has(path.replace(/\/$/, ''))) {
      tail = path.slice(-1) + tail
      path = path.slice(0, -1)
    }
    if (path.endsWith('/') || dirs.has(path)) {
      const dir = path.replace(/\/$/, '')
      return dirs.has(dir) ? moved(dir) + path.slice(dir.length) + tail : whole
    }
    return moves.has(path) || dirs.has(path) || [...dirs.keys()].some((dir) => path.startsWith(`${dir}/`)) ? moved(path) + tail : whole
  })
}

const tracked = git('ls-files').split('\n').filter(Boolean)
const TEXT = /\.(ts|mts|mjs|js|json|md|yaml|yml)$|^\.ci\/run$|Dockerfile$/
const edits = new Map()
for (const file of tracked) {
  if (!TEXT.test(file) || file.startsWith('node_modules/') || file === 'scripts/test-rooms.mjs' || file === 'package-lock.json') continue
  if (!existsSync(join(ROOT, file)) || statSync(join(ROOT, file)).isDirectory()) continue
  const before = readFileSync(join(ROOT, file), 'utf8')
  let after = file.startsWith('test/') && /\.(ts|mts)$/.test(file) ? rewriteCode(file, before) : before
  after = rewriteMentions(after)
  if (after !== before) edits.set(file, after)
}
if (problems.length) {
  console.error(problems.join('\n'))
  process.exit(1)
}

const counts = {}
for (const [from, to] of moves) {
  const room = dirname(to).replace(/^test\//, '')
  if (to.endsWith('.test.ts')) counts[room] = (counts[room] ?? 0) + 1
}
console.log(Object.entries(counts).sort().map(([room, n]) => `${room}: ${n}`).join('\n'))
console.log(`${moves.size} files moved, ${edits.size} files with paths rewritten`)
if (DRY) {
  for (const [file, text] of edits) {
    const before = readFileSync(join(ROOT, file), 'utf8').split('\n')
    const after = text.split('\n')
    before.forEach((line, i) => { if (line !== after[i]) console.log(`${file}:${i + 1}\n  - ${line.trim()}\n  + ${after[i].trim()}`) })
  }
  process.exit(0)
}
for (const [from, to] of moves) {
  mkdirSync(join(ROOT, dirname(to)), { recursive: true })
  git('mv', from, to)
}
for (const [file, text] of edits) writeFileSync(join(ROOT, moved(file)), text)
