// GDPR erase from the console (docs/privacy.md): a page that says what erasing does and asks to
// confirm (a form of its own, not a script's dialog); its POST erases. The audit log records the
// erase by the affiliate's id only: its email would be personal data written back.
import { html } from '../../web/html.js'
import type { AdminRequest, AdminResult } from '../page.js'

export async function eraseAffiliatePage({ program, paths, csrf }: AdminRequest, id: number): Promise<AdminResult> {
  const affiliate = await program.affiliates.get(id)
  const title = `Erase ${affiliate.email}?`
  const body = html`<h1>${title}</h1>
<section class="card">
<p>Erasing replaces this affiliate's personal data everywhere it is stored: email, name, referral code, PayPal and Wise details, payment details and tax details; webhook and provider payloads, stored API answers and the audit log lose them too. The affiliate is set inactive and its coupons stop crediting it.</p>
<p>Its conversions, payouts and balances stay as they are, so the ledger still adds up. This cannot be undone.</p>
<form method="post" action="${paths.affiliateErase(id)}">
<input type="hidden" name="csrf" value="${csrf}">
<input type="hidden" name="confirm" value="erase">
<div class="actions"><button type="submit" class="danger">Erase ${affiliate.email}</button> <a href="${paths.affiliate(id)}">Cancel</a></div>
</form>
</section>`
  return { title, body }
}

export async function eraseAffiliate({ paths, changes }: AdminRequest, id: number, form: URLSearchParams): Promise<AdminResult> {
  // Only the confirm page's form erases: a POST without its confirmation goes back to that page.
  if (form.get('confirm') !== 'erase') return { redirect: paths.affiliateErase(id) }
  await changes(async ({ program, audit }) => {
    await program.personalData.eraseAffiliate(id)
    await audit('affiliate.erase', `affiliate:${id}`, 'personal data erased')
  })
  return { redirect: `${paths.affiliate(id)}?erased=1` }
}
