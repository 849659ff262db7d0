// Settings, read only: the program's currency, hold period, time zone, commission rules (purchase,
// signup, trial, recurring, multi-tier, sub-programs), attribution, fraud rules and webhook retries, as the program
// applies them now. They change where they are set: the server's config file or
// projects.updateSettings (docs/settings.md), never from the console.
import { DEFAULT_WINDOW_DAYS } from '../../core/rules/settings.js'
import { fraudRulesOf } from '../../core/rules/fraud/settings.js'
import type { CommissionRule, CommissionSettings, FraudAction, ProjectSettings } from '../../core/model/types.js'
import { html, type Html } from '../../web/html.js'
import { DEFAULT_DELAYS } from '../../webhooks/dispatcher.js'
import type { AdminRequest, AdminResult } from '../page.js'

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`
/** 5 seconds, 5 minutes, 1.5 hours: a delay in its largest whole-ish unit. */
function duration(seconds: number): string {
  if (seconds < 60) return plural(seconds, 'second')
  if (seconds < 3600) return plural(Math.round((seconds / 60) * 10) / 10, 'minute')
  return plural(Math.round((seconds / 3600) * 10) / 10, 'hour')
}
const ruleText = (rule: CommissionRule, currency: string): string => (rule.type === 'percentage' ? `${rule.rate} % of the sale` : `${rule.amount} ${currency} a sale`)

function recurringText(commission: CommissionSettings, currency: string): string {
  const recurring = commission.recurring
  if (!recurring) return 'The purchase rule, for as long as the customer pays'
  const rule = recurring.amount !== undefined ? `${recurring.amount} ${currency} a payment` : recurring.rate !== undefined ? `${recurring.rate} % of each payment` : 'The purchase rule'
  const duration = recurring.durationMonths ? `, for ${plural(recurring.durationMonths, 'month')} from the first purchase` : ', with no end'
  return rule + duration
}

const row = (label: string, value: Html | string, name: string) => html`<tr><th scope="row">${label}</th><td data-setting="${name}">${value}</td></tr>`

function commissionRows(commission: CommissionSettings, currency: string, prefix: string): Html {
  return html`${row('Purchase', ruleText(commission.purchase, currency), `${prefix}purchase`)}
${row('Signup', commission.signup ? `${commission.signup.amount} ${currency} a signup` : 'Nothing', `${prefix}signup`)}
${row('Trial', commission.trial ? `${commission.trial.amount} ${currency} a trial${commission.trial.clawbackUnpaid ? ', taken back when it ends unpaid' : ''}` : 'Nothing', `${prefix}trial`)}
${row('Renewals (recurring)', recurringText(commission, currency), `${prefix}recurring`)}`
}

const ACTIONS: Record<FraudAction, string> = { allow: 'Allowed', review: 'Held for review', reject: 'Rejected' }

/** Each fraud rule with what it does to a conversion that trips it (docs/fraud.md). */
function fraudSection(settings: ProjectSettings): Html {
  const fraud = fraudRulesOf(settings)
  const { amountAbove, signupsPerVisitorPerDay: signups, signupsPerAffiliatePerDay: perAffiliate } = fraud
  return html`<section class="card" aria-labelledby="fraud-title">
<h2 id="fraud-title">Fraud rules</h2>
<table><caption class="skip">Fraud rules</caption>
${row('Self-referral (email or card)', ACTIONS[fraud.selfReferral], 'fraud.selfReferral')}
${row("Click from the affiliate's own browser", ACTIONS[fraud.sameVisitor], 'fraud.sameVisitor')}
${row('Disposable email', ACTIONS[fraud.disposableEmail], 'fraud.disposableEmail')}
${row('Paid-ad click (gclid, fbclid, msclkid)', ACTIONS[fraud.paidAdsClick], 'fraud.paidAdsClick')}
${row('Amount above', amountAbove ? `${amountAbove.amount} ${settings.currency}: ${ACTIONS[amountAbove.action].toLowerCase()}` : 'Not checked', 'fraud.amountAbove')}
${row('Signups per visitor a day', signups ? `More than ${signups.max}: ${ACTIONS[signups.action].toLowerCase()}` : 'Not checked', 'fraud.signupsPerVisitorPerDay')}
${row('Signups per affiliate a day', perAffiliate ? `More than ${perAffiliate.max}: ${ACTIONS[perAffiliate.action].toLowerCase()}` : 'Not checked', 'fraud.signupsPerAffiliatePerDay')}
</table>
</section>`
}

function settingsBody(settings: ProjectSettings): Html {
  const { currency } = settings
  const subPrograms = Object.entries(settings.subPrograms ?? {})
  const attribution = settings.attribution
  return html`<h1>Settings</h1>
<p class="muted">What the program applies now. Settings are changed in the server's config file (<code>affiliate-kit serve --config</code>) or with <code>program.projects.updateSettings</code>, not here.</p>
<div class="columns">
<section class="card" aria-labelledby="program-title">
<h2 id="program-title">Program</h2>
<table><caption class="skip">Program settings</caption>
${row('Currency', currency, 'currency')}
${row('Hold period', settings.holdPeriodDays === 0 ? 'None: commissions can be paid at once' : `${plural(settings.holdPeriodDays, 'day')} before a commission can be paid`, 'holdPeriodDays')}
${row('Time zone of days', settings.timeZone ?? 'UTC', 'timeZone')}
${row(
  'Attribution',
  attribution ? `${attribution.model === 'first_click' ? 'First click' : 'Last click'} keeps the customer; a referral counts ${plural(attribution.windowDays, 'day')}` : `As each request says (referral cookie: ${DEFAULT_WINDOW_DAYS} days)`,
  'attribution',
)}
</table>
</section>
<section class="card" aria-labelledby="commission-title">
<h2 id="commission-title">Commission</h2>
<table><caption class="skip">Commission rules</caption>
${commissionRows(settings.commission, currency, '')}
${row('Multi-tier', settings.multiTier?.enabled ? `On: the referring affiliate's parent earns ${settings.multiTier.tier2Rate} %` : 'Off', 'multiTier')}
</table>
</section>
</div>
${
  subPrograms.length === 0
    ? null
    : html`<section class="card" aria-labelledby="sub-programs-title">
<h2 id="sub-programs-title">Sub-programs</h2>
${subPrograms.map(
        ([slug, program]) => html`<h3>${slug}</h3><table><caption class="skip">Commission of sub-program ${slug}</caption>${commissionRows(program.commission, currency, `${slug}.`)}</table>`,
      )}
</section>`
}
${fraudSection(settings)}
<section class="card" aria-labelledby="webhooks-title">
<h2 id="webhooks-title">Webhooks</h2>
<table><caption class="skip">Webhook settings</caption>
${row('Retries after', (settings.webhookRetryDelaysSeconds ?? DEFAULT_DELAYS).map(duration).join(', '), 'webhookRetryDelaysSeconds')}
${row('Private networks', settings.allowPrivateNetworks ? 'Allowed (local receivers)' : 'Refused', 'allowPrivateNetworks')}
</table>
</section>`
}

export async function settingsPage({ program }: AdminRequest): Promise<AdminResult> {
  return { title: 'Settings', body: settingsBody(await program.settings()) }
}
