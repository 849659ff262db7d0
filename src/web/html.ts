// The `html` tagged template: every interpolated value is escaped unless it is already Html
// (made by `html` itself or by `unsafeHtml`), so pages cannot be injected through data.

/** Markup known to be safe: only `html` and `unsafeHtml` make it. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text
  }
}

/** A value a template may hold: text (escaped), markup, nothing (renders empty), or a list of these. */
export type HtmlValue = string | number | bigint | boolean | null | undefined | Html | readonly HtmlValue[]

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

const SPECIAL = /[&<>"']/

export function escapeHtml(text: string): string {
  return SPECIAL.test(text) ? text.replace(/[&<>"']/g, (char) => ESCAPES[char]!) : text
}

function render(value: HtmlValue): string {
  if (value instanceof Html) return value.text
  if (typeof value === 'number') return String(value)
  if (value === null || value === undefined || value === false || value === true) return ''
  if (Array.isArray(value)) return value.map(render).join('')
  return escapeHtml(String(value))
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0]!
  for (let index = 0; index < values.length; index += 1) out += render(values[index]!) + strings[index + 1]!
  return new Html(out)
}

/** Trusts `text` as markup; only for constants of this package, never for data. */
export function unsafeHtml(text: string): Html {
  return new Html(text)
}
