// Stripe Connect onboarding (docs/payouts.md "Stripe Connect"): an affiliate gets an Express
// connected account, created once (its Idempotency-Key is derived from the affiliate, so a crash
// before the id is recorded finds the same account) and recorded on the affiliate; an account link
// (POST /v1/account_links) sends it to Stripe's hosted onboarding. Transfers then go to that account.
import type { AffiliateProgram } from '../../core/program.js'
import { StripeTransferError, type StripeTransfersOptions } from './transfers.js'

export interface OnboardingUrls {
  /** Where Stripe sends the affiliate back when onboarding is done (or left). */
  returnUrl: string
  /** Where Stripe sends the affiliate when the link expired or was used: a page that makes a new one. */
  refreshUrl: string
}

/** The Idempotency-Key creating an affiliate's connected account: the project and the affiliate's id. */
export function accountIdempotencyKey(projectId: string, affiliateId: number): string {
  return `${projectId}-affiliate-${affiliateId}-account`
}

export function stripeConnect(program: AffiliateProgram, options: StripeTransfersOptions) {
  const base = (options.baseUrl ?? 'https://api.stripe.com').replace(/\/+$/, '')

  async function post(path: string, form: Record<string, string>, idempotencyKey?: string): Promise<Record<string, unknown>> {
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${options.secretKey}`,
        'content-type': 'application/x-www-form-urlencoded',
        ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
      },
      body: new URLSearchParams(form).toString(),
    })
    const body = (await response.json().catch(() => null)) as (Record<string, unknown> & { error?: { message?: string } }) | null
    if (!response.ok || !body) throw new StripeTransferError(`Stripe refused ${path}: ${body?.error?.message ?? `HTTP ${response.status}`}`, response.status)
    return body
  }

  /** The affiliate's connected account: the one recorded, else a new Express account, recorded. */
  async function accountOf(affiliateId: number): Promise<string> {
    const recorded = await program.providerPayouts.connectedAccount(affiliateId)
    if (recorded) return recorded
    const affiliate = await program.affiliates.get(affiliateId)
    const account = await post(
      '/v1/accounts',
      {
        type: 'express',
        email: affiliate.email,
        'capabilities[transfers][requested]': 'true',
        'metadata[affiliate_id]': String(affiliate.id),
        'metadata[project_id]': program.projectId,
      },
      accountIdempotencyKey(program.projectId, affiliate.id),
    )
    if (typeof account.id !== 'string') throw new StripeTransferError('Stripe answered the account without an id', 502)
    await program.providerPayouts.saveConnectedAccount(affiliate.id, account.id)
    return account.id
  }

  return {
    accountOf,
    /** A one-time link to Stripe's hosted onboarding of the affiliate's connected account (created first if needed). */
    async onboardingLink(affiliate: number | string, urls: OnboardingUrls): Promise<{ account: string; url: string }> {
      const { id } = await program.affiliates.get(affiliate)
      const account = await accountOf(id)
      const link = await post('/v1/account_links', { account, refresh_url: urls.refreshUrl, return_url: urls.returnUrl, type: 'account_onboarding' })
      if (typeof link.url !== 'string') throw new StripeTransferError('Stripe answered the account link without a url', 502)
      return { account, url: link.url }
    },
  }
}

export type StripeConnect = ReturnType<typeof stripeConnect>
