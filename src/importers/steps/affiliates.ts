// The affiliates step: each of the tool's affiliates found by email (told `existing`, `differs` or,
// with `update`, `updated`) or created with its first valid link token as referral code, in one
// write per chunk; its other link tokens kept resolving to it as links (with the tool's
// destination and UTM parameters where it has them, docs/links.md "Imports").
import { AffiliateError, ConflictError, NotFoundError, ValidationError } from '../../core/model/errors.js'
import type { ProjectSettings } from '../../core/model/types.js'
import type { AffiliateView } from '../../core/rules/views.js'
import type { SourceAffiliate, SourceLink } from '../source.js'
import { marker, type ImportRun } from './import-run.js'
import { Notes } from './notes.js'
import type { LeftWork } from './record-chunks.js'

const TOKEN = /^[A-Za-z0-9_-]{3,64}$/
const SLUG = /^[a-z0-9][a-z0-9_-]{0,63}$/

/**
 * Creates a chunk of new affiliates in one write; what it leaves (existing, taken codes, bad
 * fields, a dry run) is each imported on its own. Per record: the work left, or null when done.
 */
export async function importAffiliates(run: ImportRun, records: SourceAffiliate[]): Promise<LeftWork> {
  const prepared = records.map((record) => prepareAffiliate(run, record))
  const alone = (index: number) => () => importAffiliate(run, records[index]!, prepared[index]!)
  if (run.dryRun) return records.map((_, index) => alone(index))
  const created = await run.program.imports.createAffiliates(prepared.map(({ tokens: [token], input }) => (token === undefined ? input : { ...input, referralCode: token })))
  return created.map((affiliate, index) => {
    if (affiliate === null || affiliate instanceof AffiliateError) return alone(index)
    const record = records[index]!
    return async () => {
      prepared[index]!.notes.report()
      run.known.set(record.sourceId, { id: affiliate.id, email: affiliate.email })
      run.report.count('affiliates', record.sourceId, 'created')
      await importLinks(run, record, affiliate, prepared[index]!.tokens, true)
    }
  })
}

/** What an affiliate record becomes; its warnings and bad link tokens go to `notes`, reported once with its outcome. */
function prepareAffiliate(run: ImportRun, record: SourceAffiliate) {
  const notes = new Notes()
  const slug = subProgramOf(record.group, run.settings)
  if (record.group !== null && slug === null) {
    notes.add(() => run.report.warn('affiliates', record.sourceId, 'campaign', `"${record.group}" is not a sub-program of this project: the affiliate earns the project's rules`))
  }
  const tokens = linkTokens(run, record, notes)
  const input = {
    email: record.email,
    name: record.name,
    status: record.status,
    paypalEmail: record.paypalEmail,
    ...(record.paypalEmail ? { payoutMethod: 'paypal' as const } : {}),
    ...(slug ? { partnerSlug: slug } : {}),
    customFields: { importedFrom: marker(run, record.sourceId) },
  }
  return { tokens, input, notes }
}

async function importAffiliate(run: ImportRun, record: SourceAffiliate, { tokens, input, notes }: ReturnType<typeof prepareAffiliate>) {
  const { program, report, dryRun, known } = run
  notes.report()
  const existing = await findAffiliate(run, record.email)
  if (existing) {
    known.set(record.sourceId, { id: existing.id, email: existing.email })
    if (existing.customFields?.importedFrom === marker(run, record.sourceId)) report.resume('affiliates')
    await importLinks(run, record, existing, tokens, false)
    const wanted = { name: record.name, status: record.status, paypalEmail: record.paypalEmail?.toLowerCase() ?? null }
    const differing = (Object.keys(wanted) as (keyof typeof wanted)[]).filter((field) => existing[field] !== wanted[field])
    if (differing.length === 0) return report.count('affiliates', record.sourceId, 'existing')
    const message = differing.map((field) => `${field} is ${JSON.stringify(existing[field])}, the tool has ${JSON.stringify(wanted[field])}`).join('; ')
    if (!run.options.update) return report.count('affiliates', record.sourceId, 'differs', { field: differing.join(','), message })
    if (!dryRun) await program.affiliates.update(existing.id, Object.fromEntries(differing.map((field) => [field, wanted[field]])))
    return report.count('affiliates', record.sourceId, 'updated', { field: differing.join(','), message })
  }
  const [token] = tokens
  if (dryRun) {
    known.set(record.sourceId, { id: null, email: record.email.trim().toLowerCase() })
    for (const _ of tokens) report.count('links', record.sourceId, 'created')
    return report.count('affiliates', record.sourceId, 'created')
  }
  let created: AffiliateView
  try {
    created = await program.affiliates.create(token === undefined ? input : { ...input, referralCode: token })
  } catch (error) {
    if (!(token !== undefined && error instanceof AffiliateError && error.field === 'referralCode')) throw error
    // The code may be this very affiliate's, created by another run: then it is found on the next attempt.
    if (await findAffiliate(run, record.email)) throw new ConflictError('an affiliate with this email already exists', 'email')
    created = await program.affiliates.create(input)
  }
  known.set(record.sourceId, { id: created.id, email: created.email })
  report.count('affiliates', record.sourceId, 'created')
  await importLinks(run, record, created, tokens, true)
}

async function findAffiliate({ program }: ImportRun, email: string): Promise<AffiliateView | null> {
  try {
    return await program.affiliates.get(email)
  } catch (error) {
    if (error instanceof NotFoundError) return null
    throw error
  }
}

/** The affiliate's link tokens that can be codes (3 to 64 letters, digits, _ or -), once each; the others are reported. */
function linkTokens({ report }: ImportRun, record: SourceAffiliate, notes: Notes): string[] {
  const tokens = new Map<string, string>()
  for (const token of record.tokens) {
    if (!TOKEN.test(token)) {
      notes.add(() => report.count('links', record.sourceId, 'error', { field: 'token', message: `link token "${token}" is not a valid referral code (3 to 64 letters, digits, _ or -): links with it will not resolve` }))
    } else if (!tokens.has(token.toLowerCase())) tokens.set(token.toLowerCase(), token)
  }
  return [...tokens.values()]
}

/**
 * Keeps every link token resolving to the affiliate: its referral code, or else a link, with the
 * tool's destination and UTM parameters when it has them, or a link alias (docs/links.md
 * "Imports"). A token another affiliate holds is reported.
 */
async function importLinks(run: ImportRun, record: SourceAffiliate, affiliate: AffiliateView, tokens: string[], fresh: boolean) {
  const { program, report, dryRun } = run
  const sourceId = record.sourceId
  const aliases = tokens.length > 0 && dryRun ? new Set((await program.affiliates.aliases(affiliate.id)).map((alias) => alias.toLowerCase())) : null
  const details = new Map((record.links ?? []).filter(hasDetails).map((link) => [link.token.toLowerCase(), link]))
  for (const token of tokens) {
    if (token.toLowerCase() === affiliate.referralCode.toLowerCase()) {
      report.count('links', sourceId, fresh ? 'created' : 'existing')
      continue
    }
    if (aliases) {
      report.count('links', sourceId, aliases.has(token.toLowerCase()) ? 'existing' : 'created')
      continue
    }
    try {
      const link = details.get(token.toLowerCase())
      const { created } = link ? await importLink(run, sourceId, affiliate, link) : await program.affiliates.addAlias(affiliate.id, token)
      report.count('links', sourceId, created ? 'created' : 'existing')
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error
      report.count('links', sourceId, 'error', { field: 'token', message: `link token "${token}" is another affiliate's referral code or link key here: links with it keep resolving to that one` })
    }
  }
}

const hasDetails = (link: SourceLink) => [link.destination, link.utmSource, link.utmMedium, link.utmCampaign, link.utmTerm, link.utmContent].some((value) => value !== null)

/**
 * The tool's link as a link of the affiliate (found as it is when its key is the affiliate's
 * already); a destination or UTM value this program refuses (an origin it does not allow) is
 * reported as a warning, and the link keeps its key and the other values.
 */
async function importLink({ program, report }: ImportRun, sourceId: string, affiliate: AffiliateView, link: SourceLink): Promise<{ created: boolean }> {
  const holder = await program.links.resolve(link.token)
  if (holder?.affiliate.id === affiliate.id) return { created: false }
  if (holder) throw new ConflictError('this link key is already taken', 'key')
  const { token, ...fields } = link
  const given = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null))
  for (;;) {
    try {
      await program.links.create({ affiliate: affiliate.id, key: token, ...given })
      return { created: true }
    } catch (error) {
      if (!(error instanceof ValidationError && error.field !== undefined && error.field in given)) throw error
      report.warn('links', sourceId, error.field, `link "${token}": ${error.message}; the link is imported without it`)
      delete given[error.field]
    }
  }
}

/** The project's sub-program for a campaign or group name (its name as a slug), or null. */
function subProgramOf(group: string | null, settings: ProjectSettings): string | null {
  if (group === null) return null
  const slug = group.trim().toLowerCase().replace(/[^a-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '')
  return SLUG.test(slug) && settings.subPrograms?.[slug] ? slug : null
}
