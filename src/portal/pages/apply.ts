// The application page (docs/onboarding.md): the form, what it reads back, and the answer after
// sending it, in the visitor's language (the `apply.*` keys of the catalogues, docs/email.md
// "Languages"). The program's own field labels are shown as configured.
import type { Translate } from '../../core/model/i18n/translate.js'
import { html, type Html } from '../../web/html.js'
import type { ApplicationField, ResolvedApplication } from '../application-options.js'


/** What the applicant typed, drawn again after a refusal. */
export interface ApplicationValues {
  name: string
  email: string
  website: string
  promotion: string
  fields: Record<string, string | boolean>
  terms: boolean
}

/** Messages by input name. */
export type ApplicationErrors = Record<string, string>

export const EMPTY_VALUES: ApplicationValues = { name: '', email: '', website: '', promotion: '', fields: {}, terms: false }

/** The honeypot's input name: a person never sees it, so it must come back empty. */
export const TRAP_NAME = 'contact_me_by_fax'

const fieldInput = (field: ApplicationField) => `field_${field.name}`
/** A label as the start of a message: "How will you promote us?" reads "How will you promote us". */
const bare = (label: string) => label.replace(/[?:.]+$/, '')
const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]+$/
const MAX = { name: 200, email: 254, website: 500, promotion: 2000, field: 2000 } as const

function isWebAddress(text: string): boolean {
  return URL.canParse(text) && /^https?:$/.test(new URL(text).protocol)
}

/** The form's answers, and a message for each one that is missing or wrong. */
export function readApplication(form: URLSearchParams, application: ResolvedApplication, t: Translate): { values: ApplicationValues; errors: ApplicationErrors } {
  const text = (name: string) => (form.get(name) ?? '').trim()
  const values: ApplicationValues = { name: text('name'), email: text('email'), website: text('website'), promotion: text('promotion'), fields: {}, terms: form.get('terms') === 'on' }
  const errors: ApplicationErrors = {}
  const need = (name: 'name' | 'email' | 'website' | 'promotion', label: string) => {
    if (values[name] === '') errors[name] = t('apply.is_required', { label: bare(label) })
    else if (values[name].length > MAX[name]) errors[name] = t('apply.too_long', { label: bare(label), max: MAX[name] })
  }
  need('name', t('apply.name'))
  need('email', t('apply.email'))
  if (!errors.email && !EMAIL.test(values.email)) errors.email = t('apply.invalid_email')
  need('website', t('apply.website'))
  need('promotion', t('apply.promotion'))
  for (const field of application.fields) {
    const input = fieldInput(field)
    if (field.type === 'checkbox') {
      values.fields[field.name] = form.get(input) === 'on'
      if (field.required && !values.fields[field.name]) errors[input] = t('apply.is_required', { label: bare(field.label) })
      continue
    }
    const answer = text(input)
    values.fields[field.name] = answer
    if (answer === '') {
      if (field.required) errors[input] = t('apply.is_required', { label: bare(field.label) })
    } else if (answer.length > MAX.field) errors[input] = t('apply.too_long', { label: bare(field.label), max: MAX.field })
    else if (field.type === 'url' && !isWebAddress(answer)) errors[input] = t('apply.invalid_url', { label: bare(field.label) })
    else if (field.type === 'select' && !field.options!.includes(answer)) errors[input] = t('apply.invalid_choice', { label: bare(field.label) })
  }
  if (application.termsUrl !== null && !values.terms) errors.terms = t('apply.terms_required')
  return { values, errors }
}

export interface ApplyView {
  action: string
  csrf: string
  /** The signed time the form was drawn (form-clock.ts). */
  started: string
  application: ResolvedApplication
  /** The sub-program's slug, for its page. */
  group: string | null
  /** The catalogue of the visitor's language. */
  t: Translate
}

const described = (id: string, errors: ApplicationErrors, hint?: string) => {
  const ids = [hint, errors[id] ? `${id}-error` : undefined].filter(Boolean).join(' ')
  return html`${ids ? html` aria-describedby="${ids}"` : null}${errors[id] ? html` aria-invalid="true"` : null}`
}
const errorOf = (id: string, errors: ApplicationErrors) => (errors[id] ? html`<p class="error" id="${id}-error">${errors[id]}</p>` : null)
const requiredMark = (t: Translate) => html` <span class="muted">(${t('apply.required')})</span>`

function customField(field: ApplicationField, values: ApplicationValues, errors: ApplicationErrors, t: Translate): Html {
  const id = fieldInput(field)
  const value = values.fields[field.name]
  const required = field.required ? html` required` : null
  if (field.type === 'checkbox') {
    return html`<label class="check" for="${id}"><input id="${id}" name="${id}" type="checkbox"${value === true ? html` checked` : null}${required}${described(id, errors)}><span>${field.label}${field.required ? requiredMark(t) : null}</span></label>${errorOf(id, errors)}`
  }
  const label = html`<label for="${id}">${field.label}${field.required ? requiredMark(t) : null}</label>`
  if (field.type === 'select') {
    return html`${label}<select id="${id}" name="${id}"${required}${described(id, errors)}><option value="">${t('apply.choose')}</option>${field.options!.map(
      (choice) => html`<option value="${choice}"${value === choice ? html` selected` : null}>${choice}</option>`,
    )}</select>${errorOf(id, errors)}`
  }
  return html`${label}<input id="${id}" name="${id}" type="${field.type === 'url' ? 'url' : 'text'}" value="${typeof value === 'string' ? value : ''}" maxlength="${MAX.field}"${required}${described(id, errors)}>${errorOf(id, errors)}`
}

export function applyPage(view: ApplyView, values: ApplicationValues = EMPTY_VALUES, errors: ApplicationErrors = {}, problem: string | null = null): Html {
  const { application, t } = view
  const invalid = Object.keys(errors).length > 0
  return html`<div class="narrow card">
<h1>${view.group ? t('apply.heading_group', { group: view.group }) : t('apply.heading')}</h1>
${problem ? html`<p class="error" role="alert">${problem}</p>` : invalid ? html`<p class="error" role="alert">${t('apply.error_summary')}</p>` : null}
<p>${t('apply.intro')}</p>
<form method="post" action="${view.action}" novalidate>
<input type="hidden" name="csrf" value="${view.csrf}">
<input type="hidden" name="started" value="${view.started}">
<label for="name">${t('apply.name')}${requiredMark(t)}</label>
<input id="name" name="name" type="text" autocomplete="name" value="${values.name}" maxlength="${MAX.name}" required${described('name', errors)}>${errorOf('name', errors)}
<label for="email">${t('apply.email')}${requiredMark(t)}</label>
<input id="email" name="email" type="email" autocomplete="email" value="${values.email}" maxlength="${MAX.email}" required${described('email', errors)}>${errorOf('email', errors)}
<label for="website">${t('apply.website')}${requiredMark(t)}</label>
<p class="muted" id="website-hint">${t('apply.website_hint')}</p>
<input id="website" name="website" type="text" autocomplete="url" value="${values.website}" maxlength="${MAX.website}" required${described('website', errors, 'website-hint')}>${errorOf('website', errors)}
<label for="promotion">${t('apply.promotion')}${requiredMark(t)}</label>
<textarea id="promotion" name="promotion" maxlength="${MAX.promotion}" required${described('promotion', errors)}>${values.promotion}</textarea>${errorOf('promotion', errors)}
${application.fields.map((field) => customField(field, values, errors, t))}
<div class="trap" aria-hidden="true"><label for="${TRAP_NAME}">${t('apply.trap')}</label><input id="${TRAP_NAME}" name="${TRAP_NAME}" type="text" value="" tabindex="-1" autocomplete="off"></div>
${
  application.termsUrl === null
    ? null
    : html`<label class="check" for="terms"><input id="terms" name="terms" type="checkbox"${values.terms ? html` checked` : null} required${described('terms', errors)}><span>${t('apply.terms_before')}<a href="${application.termsUrl}" target="_blank" rel="noopener">${t('apply.terms_link')}</a>${t('apply.terms_after')}${requiredMark(t)}</span></label>${errorOf('terms', errors)}`
}
<div class="actions"><button type="submit">${t('apply.submit')}</button></div>
</form>
</div>`
}

/** The answer to every accepted-looking submission, new email or not. */
export function appliedPage(t: Translate): Html {
  return html`<div class="narrow card"><h1>${t('apply.thanks_heading')}</h1><p class="notice" role="status">${t('apply.thanks_body')}</p></div>`
}

/** An open page's answer for an email that has an account: it is not signed in by applying. */
export function alreadyAppliedPage(signInUrl: string, t: Translate): Html {
  return html`<div class="narrow card"><h1>${t('apply.exists_heading')}</h1><p>${t('apply.exists_body')}</p><p><a href="${signInUrl}">${t('apply.exists_link')}</a></p></div>`
}
