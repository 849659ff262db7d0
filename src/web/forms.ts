// Reading a posted HTML form: urlencoded only, size-limited, text any storage can keep; anything
// else is a clear 4xx naming the field.
import { storableText } from '../server/text.js'

export const MAX_FORM_BYTES = 16 * 1024

export class FormError extends Error {
  constructor(
    readonly status: 413 | 415 | 400,
    message: string,
  ) {
    super(message)
    this.name = 'FormError'
  }
}

export async function readForm(request: Request): Promise<URLSearchParams> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
  if (type !== 'application/x-www-form-urlencoded') throw new FormError(415, 'forms must be sent as application/x-www-form-urlencoded')
  const declared = Number(request.headers.get('content-length') ?? '0')
  if (declared > MAX_FORM_BYTES) throw new FormError(413, 'the form is too large')
  const bytes = new Uint8Array(await request.arrayBuffer())
  if (bytes.byteLength > MAX_FORM_BYTES) throw new FormError(413, 'the form is too large')
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new FormError(400, 'the form is not valid UTF-8')
  }
  const form = new URLSearchParams(text)
  for (const [name, value] of form) {
    // PostgreSQL text cannot hold NUL (the API refuses it too); no browser field sends the other
    // control characters (tab and line ends aside), so they are refused alike.
    if (!storableText(name) || CONTROL.test(name)) throw new FormError(400, 'a field name holds control characters')
    if (!storableText(value) || CONTROL.test(value)) throw new FormError(400, `${name}: must not contain control characters`)
  }
  return form
}

const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/
