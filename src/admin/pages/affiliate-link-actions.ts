// Creating and deleting an affiliate's links from its page in the console, through links.create
// and links.delete as POST and DELETE /links do, each recorded in the audit log with the change.
import type { AdminRequest, AdminResult } from '../page.js'
import { formRefusal } from '../refusal.js'
import { affiliateEditPage } from './affiliate-edit.js'
import { LINK_FIELDS, type LinkValues } from './affiliate-links.js'

const FORM_NAMES: Record<keyof LinkValues, string> = { key: 'key', destination: 'destination', utmCampaign: 'utm_campaign', utmSource: 'utm_source', utmMedium: 'utm_medium' }

export async function createAffiliateLink(context: AdminRequest, affiliateId: number, form: URLSearchParams): Promise<AdminResult> {
  const values = Object.fromEntries(LINK_FIELDS.map((field) => [field, (form.get(FORM_NAMES[field]) ?? '').trim()])) as LinkValues
  const refused = await context
    .changes(async ({ program, audit }) => {
      const affiliate = await program.affiliates.get(affiliateId)
      const link = await program.links.create({
        affiliate: affiliate.id,
        ...(values.key === '' ? {} : { key: values.key }),
        ...(values.destination === '' ? {} : { destination: values.destination }),
        utmCampaign: values.utmCampaign,
        utmSource: values.utmSource,
        utmMedium: values.utmMedium,
      })
      await audit('link.create', `link:${link.id}`, `${affiliate.email}: ${link.key}`)
      return null
    })
    .catch((error: unknown) => {
      const refusal = formRefusal(error)
      if (!refusal) throw error
      return refusal
    })
  if (refused) return affiliateEditPage(context, affiliateId, { values, refusal: refused })
  return { redirect: `${context.paths.affiliate(affiliateId)}?link_created=1#links` }
}

export async function deleteAffiliateLink(context: AdminRequest, id: number): Promise<AdminResult> {
  const affiliateId = await context.changes(async ({ program, audit }) => {
    const link = await program.links.get(id)
    await program.links.delete(id)
    await audit('link.delete', `link:${id}`, link.key)
    return link.affiliateId
  })
  return { redirect: `${context.paths.affiliate(affiliateId)}?link_deleted=1#links` }
}
