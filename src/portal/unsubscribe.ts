// GET/POST /unsubscribe?token=...: the one-click unsubscribe of the mails (RFC 8058). The token,
// signed by the mail dispatcher, names the affiliate and the topic; GET asks to confirm, POST (the
// mail client's one-click request, or the button) turns the topic off. No sign-in and no CSRF
// token: only the holder of the mail has the token, and all it can do is stop mails.
import { chooseLocale } from '../core/model/i18n/locales.js'
import { translator } from '../core/model/i18n/translate.js'
import { NotFoundError } from '../core/model/errors.js'
import { readUnsubscribeToken } from '../email/unsubscribe.js'
import { html, type Html } from '../web/html.js'
import type { PortalProgram } from './program.js'

export interface UnsubscribeSetup {
  program: PortalProgram
  secret: string
  locale: string | undefined
  /** The program's name (the theme's title). */
  title: string
  action: string
}

export async function unsubscribePage(setup: UnsubscribeSetup, request: Request, url: URL): Promise<{ title: string; body: Html; status: number; lang: string }> {
  const token = url.searchParams.get('token')
  const target = readUnsubscribeToken(setup.secret, setup.program.projectId, token)
  const affiliate = target ? await setup.program.affiliates.get(target.affiliateId).catch((error: unknown) => (error instanceof NotFoundError ? null : Promise.reject(error))) : null
  const locale = chooseLocale(affiliate?.locale, request.headers.get('accept-language'), setup.locale)
  const t = translator(locale)
  const title = t('portal.unsubscribe.title')
  if (!target || !affiliate) return { title, body: html`<h1>${title}</h1><p class="error" role="alert">${t('portal.unsubscribe.invalid')}</p>`, status: 400, lang: locale }
  const topic = t(target.topic === 'commissions' ? 'topic.commissions' : 'topic.summary')
  if (request.method === 'POST') {
    const off = new Set(affiliate.emailOptOut ?? [])
    off.add(target.topic)
    await setup.program.affiliates.update(affiliate.id, { emailOptOut: [...off] })
    return { title, body: html`<h1>${title}</h1><p class="notice" role="status">${t('portal.unsubscribe.done', { topic })}</p>`, status: 200, lang: locale }
  }
  const body = html`<h1>${title}</h1>
<section class="card">
<p>${t('portal.unsubscribe.confirm', { topic, program: setup.title })}</p>
<form method="post" action="${setup.action}?token=${token ?? ''}">
<div class="actions"><button type="submit">${t('portal.unsubscribe.button')}</button></div>
</form>
</section>`
  return { title, body, status: 200, lang: locale }
}
