// The portal's application page options (docs/onboarding.md): who may apply to the program's own
// page, the program's extra fields, its terms, the bot defences and the captcha hook. Checked once,
// when the portal is created, so a mistake in them is a start-up error and never a broken page.
import type { SignupMode } from '../core/model/types.js'

export type ApplicationFieldType = 'text' | 'url' | 'select' | 'checkbox'

/** One of the program's own questions on the application page. */
export interface ApplicationField {
  /** The key its answer is stored under (a-z, 0-9, _). */
  name: string
  label: string
  type: ApplicationFieldType
  /** @default false */
  required?: boolean
  /** The choices of a `select`. */
  options?: string[]
}

/** What a `verifyApplication` hook gets: the whole posted form (a captcha's token is in it) and who sent it. */
export interface ApplicationSubmission {
  email: string
  name: string
  form: URLSearchParams
  /** The client's address (see trustProxy); null when unknown. */
  clientAddress: string | null
}

export interface ApplicationOptions {
  /** How `<portal>/apply` admits applicants; a sub-program's page follows `subPrograms.<slug>.signup`. @default 'review' */
  signup?: SignupMode
  /** The program's own fields, after the built-in ones. @default none */
  fields?: ApplicationField[]
  /** The program's terms: when set, applicants must agree to them. @default none */
  termsUrl?: string
  /** A submission sent sooner than this after the form was drawn is refused. @default 3 */
  minSecondsToSubmit?: number
}

export interface ResolvedApplication {
  signup: SignupMode
  fields: ApplicationField[]
  termsUrl: string | null
  minMsToSubmit: number
}

/** A form stays valid for a day; after that it is drawn again. */
export const FORM_MAX_AGE_MS = 86_400_000

const FIELD_NAME = /^[a-z][a-z0-9_]{0,63}$/
const TYPES: readonly ApplicationFieldType[] = ['text', 'url', 'select', 'checkbox']
const MODES: readonly SignupMode[] = ['open', 'review', 'closed']
const MAX_FIELDS = 20

/** The options checked and completed; TypeError naming the first wrong one. */
export function resolveApplication(options: ApplicationOptions | undefined): ResolvedApplication {
  const signup = options?.signup ?? 'review'
  if (!MODES.includes(signup)) throw new TypeError('application.signup must be open, review or closed')
  const fields = options?.fields ?? []
  if (!Array.isArray(fields) || fields.length > MAX_FIELDS) throw new TypeError(`application.fields must be a list of at most ${MAX_FIELDS} fields`)
  const names = new Set<string>()
  fields.forEach((field, index) => {
    const at = `application.fields[${index}]`
    if (typeof field?.name !== 'string' || !FIELD_NAME.test(field.name)) throw new TypeError(`${at}.name must be lowercase letters, digits and _ (such as "audience_size")`)
    if (names.has(field.name)) throw new TypeError(`${at}.name "${field.name}" is used twice`)
    names.add(field.name)
    if (typeof field.label !== 'string' || field.label.trim() === '' || field.label.length > 200) throw new TypeError(`${at}.label must be text of at most 200 characters`)
    if (!TYPES.includes(field.type)) throw new TypeError(`${at}.type must be text, url, select or checkbox`)
    const choices = field.options
    if (field.type === 'select' && !(Array.isArray(choices) && choices.length > 0 && choices.every((choice) => typeof choice === 'string' && choice !== '' && choice.length <= 200))) {
      throw new TypeError(`${at}.options must list the choices of a select`)
    }
    if (field.type !== 'select' && choices !== undefined) throw new TypeError(`${at}.options is only for a select`)
  })
  const termsUrl = options?.termsUrl ?? null
  if (termsUrl !== null && !(URL.canParse(termsUrl) && /^https?:$/.test(new URL(termsUrl).protocol))) throw new TypeError('application.termsUrl must be an http(s) URL')
  const seconds = options?.minSecondsToSubmit ?? 3
  if (!(typeof seconds === 'number' && seconds >= 0 && seconds <= 3600)) throw new TypeError('application.minSecondsToSubmit must be between 0 and 3600')
  return { signup, fields, termsUrl, minMsToSubmit: seconds * 1000 }
}
