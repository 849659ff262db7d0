// The application page (docs/onboarding.md): the form, what it reads back, and the answer after
// sending it. Every sentence shown is in APPLY_TEXT, one object, to move into a catalogue as is.
import { html, type Html } from '../../web/html.js'
import type { ApplicationField, ResolvedApplication } from '../application-options.js'

export const APPLY_TEXT = {
  title: 'Apply',
  heading: 'Apply to become an affiliate',
  headingGroup: (group: string) => `Apply to become an affiliate: ${group}`,
  intro: 'Tell us a little about you and how you will share our product. Every field marked required must be filled in.',
  required: 'required',
  name: 'Your name',
  email: 'Email address',
  website: 'Website or channel',
  websiteHint: 'The site, newsletter, video channel or social profile where you will promote us.',
  promotion: 'How will you promote us?',
  choose: 'Choose one',
  termsBefore: 'I agree to the ',
  termsLink: 'program terms',
  trap: 'Leave this field empty',
  submit: 'Send my application',
  errorSummary: 'Please correct the fields below.',
  isRequired: (label: string) => `${label}: this field is required.`,
  invalidEmail: 'Email address: enter an address such as name@example.com.',
  invalidUrl: (label: string) => `${label}: enter a web address starting with https://.`,
  invalidChoice: (label: string) => `${label}: choose one of the options.`,
  tooLong: (label: string, max: number) => `${label}: at most ${max} characters.`,
  termsRequired: 'Agree to the program terms to apply.',
  tooFast: 'That was quick. Check your details and send the form again.',
  expired: 'This form has expired. Check your details and send it again.',
  notVerified: 'We could not verify this application. Try again.',
  tooMany: 'Too many applications from your network. Wait a while and try again.',
  thanksTitle: 'Application received',
  thanksHeading: 'Thank you for applying',
  thanksBody: 'If your application is new, we will review it and write to you at the address you gave. You can close this page.',
  existsTitle: 'Sign in',
  existsHeading: 'You may already have an account',
  existsBody: 'Sign in with the sign-in link for this address.',
  existsLink: 'Go to sign in',
} as const

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
export function readApplication(form: URLSearchParams, application: ResolvedApplication): { values: ApplicationValues; errors: ApplicationErrors } {
  const text = (name: string) => (form.get(name) ?? '').trim()
  const values: ApplicationValues = { name: text('name'), email: text('email'), website: text('website'), promotion: text('promotion'), fields: {}, terms: form.get('terms') === 'on' }
  const errors: ApplicationErrors = {}
  const need = (name: 'name' | 'email' | 'website' | 'promotion', label: string) => {
    if (values[name] === '') errors[name] = APPLY_TEXT.isRequired(bare(label))
    else if (values[name].length > MAX[name]) errors[name] = APPLY_TEXT.tooLong(bare(label), MAX[name])
  }
  need('name', APPLY_TEXT.name)
  need('email', APPLY_TEXT.email)
  if (!errors.email && !EMAIL.test(values.email)) errors.email = APPLY_TEXT.invalidEmail
  need('website', APPLY_TEXT.website)
  need('promotion', APPLY_TEXT.promotion)
  for (const field of application.fields) {
    const input = fieldInput(field)
    if (field.type === 'checkbox') {
      values.fields[field.name] = form.get(input) === 'on'
      if (field.required && !values.fields[field.name]) errors[input] = APPLY_TEXT.isRequired(bare(field.label))
      continue
    }
    const answer = text(input)
    values.fields[field.name] = answer
    if (answer === '') {
      if (field.required) errors[input] = APPLY_TEXT.isRequired(bare(field.label))
    } else if (answer.length > MAX.field) errors[input] = APPLY_TEXT.tooLong(bare(field.label), MAX.field)
    else if (field.type === 'url' && !isWebAddress(answer)) errors[input] = APPLY_TEXT.invalidUrl(bare(field.label))
    else if (field.type === 'select' && !field.options!.includes(answer)) errors[input] = APPLY_TEXT.invalidChoice(bare(field.label))
  }
  if (application.termsUrl !== null && !values.terms) errors.terms = APPLY_TEXT.termsRequired
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
}

const described = (id: string, errors: ApplicationErrors, hint?: string) => {
  const ids = [hint, errors[id] ? `${id}-error` : undefined].filter(Boolean).join(' ')
  return html`${ids ? html` aria-describedby="${ids}"` : null}${errors[id] ? html` aria-invalid="true"` : null}`
}
const errorOf = (id: string, errors: ApplicationErrors) => (errors[id] ? html`<p class="error" id="${id}-error">${errors[id]}</p>` : null)
const requiredMark = html` <span class="muted">(${APPLY_TEXT.required})</span>`

function customField(field: ApplicationField, values: ApplicationValues, errors: ApplicationErrors): Html {
  const id = fieldInput(field)
  const value = values.fields[field.name]
  const required = field.required ? html` required` : null
  if (field.type === 'checkbox') {
    return html`<label class="check" for="${id}"><input id="${id}" name="${id}" type="checkbox"${value === true ? html` checked` : null}${required}${described(id, errors)}><span>${field.label}${field.required ? requiredMark : null}</span></label>${errorOf(id, errors)}`
  }
  const label = html`<label for="${id}">${field.label}${field.required ? requiredMark : null}</label>`
  if (field.type === 'select') {
    return html`${label}<select id="${id}" name="${id}"${required}${described(id, errors)}><option value="">${APPLY_TEXT.choose}</option>${field.options!.map(
      (choice) => html`<option value="${choice}"${value === choice ? html` selected` : null}>${choice}</option>`,
    )}</select>${errorOf(id, errors)}`
  }
  return html`${label}<input id="${id}" name="${id}" type="${field.type === 'url' ? 'url' : 'text'}" value="${typeof value === 'string' ? value : ''}" maxlength="${MAX.field}"${required}${described(id, errors)}>${errorOf(id, errors)}`
}

export function applyPage(view: ApplyView, values: ApplicationValues = EMPTY_VALUES, errors: ApplicationErrors = {}, problem: string | null = null): Html {
  const { application } = view
  const invalid = Object.keys(errors).length > 0
  return html`<div class="narrow card">
<h1>${view.group ? APPLY_TEXT.headingGroup(view.group) : APPLY_TEXT.heading}</h1>
${problem ? html`<p class="error" role="alert">${problem}</p>` : invalid ? html`<p class="error" role="alert">${APPLY_TEXT.errorSummary}</p>` : null}
<p>${APPLY_TEXT.intro}</p>
<form method="post" action="${view.action}" novalidate>
<input type="hidden" name="csrf" value="${view.csrf}">
<input type="hidden" name="started" value="${view.started}">
<label for="name">${APPLY_TEXT.name}${requiredMark}</label>
<input id="name" name="name" type="text" autocomplete="name" value="${values.name}" maxlength="${MAX.name}" required${described('name', errors)}>${errorOf('name', errors)}
<label for="email">${APPLY_TEXT.email}${requiredMark}</label>
<input id="email" name="email" type="email" autocomplete="email" value="${values.email}" maxlength="${MAX.email}" required${described('email', errors)}>${errorOf('email', errors)}
<label for="website">${APPLY_TEXT.website}${requiredMark}</label>
<p class="muted" id="website-hint">${APPLY_TEXT.websiteHint}</p>
<input id="website" name="website" type="text" autocomplete="url" value="${values.website}" maxlength="${MAX.website}" required${described('website', errors, 'website-hint')}>${errorOf('website', errors)}
<label for="promotion">${APPLY_TEXT.promotion}${requiredMark}</label>
<textarea id="promotion" name="promotion" maxlength="${MAX.promotion}" required${described('promotion', errors)}>${values.promotion}</textarea>${errorOf('promotion', errors)}
${application.fields.map((field) => customField(field, values, errors))}
<div class="trap" aria-hidden="true"><label for="${TRAP_NAME}">${APPLY_TEXT.trap}</label><input id="${TRAP_NAME}" name="${TRAP_NAME}" type="text" value="" tabindex="-1" autocomplete="off"></div>
${
  application.termsUrl === null
    ? null
    : html`<label class="check" for="terms"><input id="terms" name="terms" type="checkbox"${values.terms ? html` checked` : null} required${described('terms', errors)}><span>${APPLY_TEXT.termsBefore}<a href="${application.termsUrl}" target="_blank" rel="noopener">${APPLY_TEXT.termsLink}</a>${requiredMark}</span></label>${errorOf('terms', errors)}`
}
<div class="actions"><button type="submit">${APPLY_TEXT.submit}</button></div>
</form>
</div>`
}

/** The answer to every accepted-looking submission, new email or not. */
export function appliedPage(): Html {
  return html`<div class="narrow card"><h1>${APPLY_TEXT.thanksHeading}</h1><p class="notice" role="status">${APPLY_TEXT.thanksBody}</p></div>`
}

/** An open page's answer for an email that has an account: it is not signed in by applying. */
export function alreadyAppliedPage(signInUrl: string): Html {
  return html`<div class="narrow card"><h1>${APPLY_TEXT.existsHeading}</h1><p>${APPLY_TEXT.existsBody}</p><p><a href="${signInUrl}">${APPLY_TEXT.existsLink}</a></p></div>`
}
