// Links (docs/links.md): an affiliate's many links, each a key (`/r/<key>`), a destination on an
// allowed origin, an optional short domain and default UTM parameters; created, read, listed,
// changed, deleted, drawn as a QR code, and resolved from a token (what a referral link's redirect
// asks). A key is never a referral code nor another link's key, in any case: a taken one is a 409
// naming `key` (the storage's unique index decides between racing writers).
import type * as v from 'valibot'
import { ConflictError, NotFoundError } from '../model/errors.js'
import { newLink } from '../model/entities.js'
import { createLinkInput, linkQrInput, listLinksInput, QR_SIZE, updateLinkInput, type CreateLinkInput, type LinkQrInput, type ListLinksInput, type UpdateLinkInput } from '../model/link-inputs.js'
import { newLinkKey } from '../model/random.js'
import { CODE_PATTERN, validate } from '../model/schemas.js'
import type { Affiliate, Link } from '../model/types.js'
import { listWindow, withConflicts } from '../ports/conflicts.js'
import type { Insert, StorageTx } from '../ports/storage.js'
import type { ProjectContext } from '../rules/context.js'
import { checkedDestination, checkedDomain, shortUrl } from '../rules/link-settings.js'
import { UTM_PARAMETERS } from '../rules/link-destination.js'
import { linkView, type LinkView } from '../rules/views.js'
import { findAffiliate } from './affiliates.js'
import { qrImage, type QrImage } from './link-qr.js'

/** What a token names (links.resolve): the affiliate, and its link unless the token is its referral code. */
export interface ResolvedLink {
  affiliate: Pick<Affiliate, 'id' | 'email' | 'referralCode' | 'status'>
  /** Null when the token is the affiliate's referral code (its default link). */
  link: LinkView | null
}

type LinkFields = Partial<Pick<Link, 'destination' | 'domain' | 'utmSource' | 'utmMedium' | 'utmCampaign' | 'utmTerm' | 'utmContent'>>

/** Draws of a generated key before giving up (each collides about once in a million). */
const KEY_DRAWS = 5

export function linksService(ctx: ProjectContext) {
  const { storage, projectId } = ctx

  async function find(tx: StorageTx, id: number): Promise<Link> {
    const link = await tx.links.get(projectId, id)
    if (!link) throw new NotFoundError('link not found', 'id')
    return link
  }

  /** The given fields as stored: a destination and a short domain checked against the program's settings. */
  function fieldsOf(data: Omit<v.InferOutput<typeof updateLinkInput>, 'key'>): LinkFields {
    const fields: LinkFields = {}
    if (data.destination !== undefined) fields.destination = data.destination === null ? null : checkedDestination(ctx.links, data.destination)
    if (data.domain !== undefined) fields.domain = data.domain === null ? null : checkedDomain(ctx.links, data.domain)
    for (const [, field] of UTM_PARAMETERS) if (data[field] !== undefined) fields[field] = data[field]
    return fields
  }

  /** Refuses a key that is a referral code or the key of a link other than `self`. */
  async function checkKeyFree(tx: StorageTx, key: string, self: Link | null): Promise<void> {
    const holder = await tx.links.resolve(projectId, key)
    if (!holder) return
    if (holder.link === null) throw new ConflictError("this key is an affiliate's referral code", 'key')
    if (holder.link.id !== self?.id) throw new ConflictError('this link key is already taken', 'key')
  }

  /** A free key of the affiliate's own: `<code>-<4 characters>`, drawn again while taken. */
  async function generatedKey(tx: StorageTx, affiliate: Affiliate): Promise<string> {
    for (let draw = 0; draw < KEY_DRAWS; draw += 1) {
      const key = newLinkKey(affiliate.referralCode)
      if (!(await tx.links.resolve(projectId, key))) return key
    }
    throw new ConflictError('no free key was found for this link: name one', 'key')
  }

  return {
    /** Creates a link of the affiliate (by id or email); without a key, one is made from its referral code. */
    async create(input: CreateLinkInput): Promise<LinkView> {
      const data = validate(createLinkInput, input)
      const fields = fieldsOf(data)
      return withConflicts(() =>
        storage.transaction(async (tx) => {
          const affiliate = await findAffiliate(tx, projectId, data.affiliate)
          if (data.key !== undefined) await checkKeyFree(tx, data.key, null)
          const key = data.key ?? (await generatedKey(tx, affiliate))
          const link = await tx.links.insert(newLink<Insert<Link>>({ projectId, affiliateId: affiliate.id, key, ...fields, createdAt: ctx.clock.now() }))
          return linkView(link, ctx.links)
        }),
      )
    },

    async get(id: number): Promise<LinkView> {
      return storage.transaction(async (tx) => linkView(await find(tx, id), ctx.links))
    },

    /** The project's links, or one affiliate's (by id or email), newest first. */
    async list(input: ListLinksInput = {}): Promise<{ items: LinkView[]; total: number; limit: number; offset: number }> {
      const data = validate(listLinksInput, input)
      const window = listWindow(data, 20, 100)
      return storage.transaction(async (tx) => {
        const affiliateId = data.affiliate === undefined ? undefined : (await findAffiliate(tx, projectId, data.affiliate)).id
        const page = await tx.links.list(projectId, { ...window, ...(affiliateId === undefined ? {} : { affiliateId }) })
        return { items: page.items.map((link) => linkView(link, ctx.links)), total: page.total, ...window }
      })
    },

    /** Changes the fields given (null clears one); a new key follows the rule of create. */
    async update(id: number, input: UpdateLinkInput): Promise<LinkView> {
      const data = validate(updateLinkInput, input)
      const fields = fieldsOf(data)
      return withConflicts(() =>
        storage.transaction(async (tx) => {
          const link = await find(tx, id)
          if (data.key !== undefined) await checkKeyFree(tx, data.key, link)
          const updated = await tx.links.update(projectId, id, data.key === undefined ? fields : { ...fields, key: data.key })
          if (!updated) throw new NotFoundError('link not found', 'id')
          return linkView(updated, ctx.links)
        }),
      )
    },

    async delete(id: number): Promise<void> {
      await storage.transaction(async (tx) => {
        await find(tx, id)
        // A concurrent delete may have removed it since the read: only one answers 204.
        if (!(await tx.links.delete(projectId, id))) throw new NotFoundError('link not found', 'id')
      })
    },

    /**
     * The affiliate whose referral code or link key the token is (in any case; the code first) and
     * the link; null for any other token, a malformed one included. One statement on SQL storage.
     */
    async resolve(token: string): Promise<ResolvedLink | null> {
      if (typeof token !== 'string' || !CODE_PATTERN.test(token)) return null
      const found = await storage.links.resolve(projectId, token)
      if (!found) return null
      const { id, email, referralCode: code, status } = found.affiliate
      return { affiliate: { id, email, referralCode: code, status }, link: found.link && linkView(found.link, ctx.links) }
    },

    /**
     * The QR code of the link's short URL (docs/links.md "QR codes"): SVG unless `format` is png,
     * `size` pixels wide (64 to 1024, default 256). A link without a short URL: ConflictError.
     */
    async qr(id: number, input: LinkQrInput = {}): Promise<QrImage> {
      const data = validate(linkQrInput, input)
      const link = await storage.transaction((tx) => find(tx, id))
      const url = shortUrl(ctx.links, link)
      if (url === null) {
        throw new ConflictError('this link has no short URL to encode: the program has no public URL for links (option links.publicUrl, or tracking.publicUrl on the server)', 'id')
      }
      return qrImage(url, data.format ?? 'svg', data.size ?? QR_SIZE.default)
    },
  }
}
